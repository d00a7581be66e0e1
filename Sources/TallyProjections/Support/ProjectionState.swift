import TallyModel

/// A projection whose state is written and read with the checkpoint encoding.
protocol ProjectionState {
    /// Appends the state (with its magic header).
    func encodeState(to writer: inout BinaryWriter)
    /// Reads a state written by `encodeState(to:)`.
    init(from reader: inout StateReader) throws(ProjectionError)
}

extension ProjectionState {
    /// The state as deterministic checkpoint bytes.
    func stateBytes() -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 1024)
        encodeState(to: &writer)
        return writer.bytes
    }

    /// Restores a state from `stateBytes()`, rejecting leftover bytes.
    init(stateBytes bytes: [UInt8]) throws(ProjectionError) {
        var reader = StateReader(bytes)
        try self.init(from: &reader)
        try reader.finish()
    }
}
