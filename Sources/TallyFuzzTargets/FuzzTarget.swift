/// The fuzz targets. Each takes arbitrary bytes and either returns (the input was accepted or
/// rejected with the component's typed error) or throws ``FuzzFinding``; a trap inside the
/// product code (index out of range, overflow, force unwrap, precondition) is a bug too.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// ``FuzzTargets/journalFrames(_:)``.
    case journalFrames = "journal-frames"
    /// ``FuzzTargets/eventCodec(_:)``.
    case eventCodec = "event-codec"
    /// ``FuzzTargets/commandParser(_:)``.
    case commandParser = "command-parser"
    /// ``FuzzTargets/csvImport(_:)``.
    case csvImport = "csv-import"

    /// The directory name under `Fuzz/Corpus/` and `Fuzz/Regressions/`.
    public var directoryName: String { rawValue }

    /// Runs the target on one input.
    /// - Throws: ``FuzzFinding`` when the input breaks one of the target's properties.
    public func run(_ data: UnsafeRawBufferPointer) throws(FuzzFinding) {
        switch self {
        case .journalFrames: try FuzzTargets.journalFrames(data)
        case .eventCodec: try FuzzTargets.eventCodec(data)
        case .commandParser: try FuzzTargets.commandParser(data)
        case .csvImport: try FuzzTargets.csvImport(data)
        }
    }

    /// Runs the target on `bytes`.
    /// - Returns: the finding, or nil when the input passed.
    public func finding(for bytes: [UInt8]) -> FuzzFinding? {
        let result = bytes.withUnsafeBytes { data in
            Result<Void, FuzzFinding> { () throws(FuzzFinding) in try run(data) }
        }
        guard case .failure(let finding) = result else { return nil }
        return finding
    }
}

/// The entry points of the fuzz targets, one per component that reads untrusted bytes.
public enum FuzzTargets {}
