import HashTreeCollections
import TallyModel

/// A read model whose state is written and read with the checkpoint encoding, as one part of
/// ``Projections``' checkpoint.
protocol ProjectionState {
    /// Appends the state (with its magic header); without the entries of its archived maps
    /// when `archived` (a checkpoint writes those to the archive).
    func encodeState(to writer: inout BinaryWriter, archived: Bool)
    /// Reads a state written by `encodeState(to:archived:)`.
    init(from reader: inout StateReader) throws(ProjectionError)
}

/// A read-model record or key stored in the store's history in its checkpoint layout
/// (``StateCodable``): one layout for both.
protocol ArchivedState: ArchiveCodable, StateCodable {}

extension ArchivedState {
    func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
}

extension StateCodable {
    /// Reads a value stored in the archive in its checkpoint layout.
    static func decodeArchived(from reader: inout BinaryReader) throws(EventCodecError) -> Self {
        var state = StateReader(continuing: reader)
        let value: Self
        do {
            value = try Self(from: &state)
        } catch {
            throw .invalidValue(field: "\(Self.self)", reason: "\(error)", offset: reader.offset)
        }
        reader = state.binary
        return value
    }
}

extension BinaryWriter {
    /// Appends an archived map's entries, or none when `archived` (they are in the archive).
    mutating func write<Key: StateCodable & Comparable, Value: StateCodable>(_ map: ArchivedMap<Key, Value>, archived: Bool) {
        StateCodableMap.encode(archived ? [:] : map.allEntries, to: &self)
    }
}

extension StateReader {
    /// Reads an archived map written by `write(_:archived:)`; its entries are in memory.
    mutating func read<Key: StateCodable & Comparable, Value: StateCodable>(
        _ space: ArchiveSpace, _ type: ArchivedMap<Key, Value>.Type = ArchivedMap<Key, Value>.self
    ) throws(ProjectionError) -> ArchivedMap<Key, Value> {
        ArchivedMap(space: space, entries: try read(TreeDictionary<Key, Value>.self))
    }
}
