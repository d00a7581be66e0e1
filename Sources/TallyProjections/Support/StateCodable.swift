import HashTreeCollections
import TallyModel

/// A value with a compact, deterministic binary form in projection checkpoints.
///
/// Layout rules follow the event codec (`Docs/Events.md`): varints, zigzag for signed values,
/// 16-byte ids, length-prefixed strings, a presence byte for optionals, a count before arrays,
/// and dictionaries written as arrays of pairs sorted by key, so equal states give equal bytes.
protocol StateCodable {
    /// Appends the value.
    func encode(to writer: inout BinaryWriter)
    /// Reads a value.
    init(from reader: inout StateReader) throws(ProjectionError)
}

extension Bool: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeByte(self ? 1 : 0) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        switch try reader.readByte() {
        case 0: self = false
        case 1: self = true
        case let other: throw .invalidCheckpoint(reason: "boolean byte \(other)")
        }
    }
}

extension Int64: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeVarInt(self) }
    init(from reader: inout StateReader) throws(ProjectionError) { self = try reader.readVarInt() }
}

extension UInt64: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeVarUInt(self) }
    init(from reader: inout StateReader) throws(ProjectionError) { self = try reader.readVarUInt() }
}

extension Int: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeVarInt(Int64(self)) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        guard let value = Int(exactly: try reader.readVarInt()) else { throw .invalidCheckpoint(reason: "Int out of range") }
        self = value
    }
}


extension String: StateCodable {
    func encode(to writer: inout BinaryWriter) { writer.writeString(self) }
    init(from reader: inout StateReader) throws(ProjectionError) { self = try reader.readString() }
}

extension Optional: StateCodable where Wrapped: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        switch self {
        case .none: writer.writeByte(0)
        case .some(let value):
            writer.writeByte(1)
            value.encode(to: &writer)
        }
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        switch try reader.readByte() {
        case 0: self = .none
        case 1: self = .some(try Wrapped(from: &reader))
        case let other: throw .invalidCheckpoint(reason: "presence byte \(other)")
        }
    }
}

extension Array: StateCodable where Element: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        writer.writeVarUInt(UInt64(count))
        for element in self { element.encode(to: &writer) }
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        let count = try reader.readCount(elementBytesMin: 1)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try Element(from: &reader)) }
        self = elements
    }
}

extension Dictionary: StateCodable where Key: StateCodable & Comparable, Value: StateCodable {
    func encode(to writer: inout BinaryWriter) { StateCodableMap.encode(self, to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self = [:]
        try StateCodableMap.decode(from: &reader) { key, value in updateValue(value, forKey: key) == nil }
    }
}

extension TreeDictionary: StateCodable where Key: StateCodable & Comparable, Value: StateCodable {
    func encode(to writer: inout BinaryWriter) { StateCodableMap.encode(self, to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self = [:]
        try StateCodableMap.decode(from: &reader) { key, value in updateValue(value, forKey: key) == nil }
    }
}

/// The one layout of a map in a checkpoint, whatever map type holds it: the count, then each
/// key and value in key order.
enum StateCodableMap {
    static func encode<Key: StateCodable & Comparable, Value: StateCodable>(
        _ map: some Sequence<(key: Key, value: Value)>, to writer: inout BinaryWriter
    ) {
        let entries = map.sorted { $0.key < $1.key }
        writer.writeVarUInt(UInt64(entries.count))
        for entry in entries {
            entry.key.encode(to: &writer)
            entry.value.encode(to: &writer)
        }
    }

    /// Reads the entries and hands each to `insert`, which returns false for a duplicate key.
    static func decode<Key: StateCodable, Value: StateCodable>(
        from reader: inout StateReader, insert: (Key, Value) -> Bool
    ) throws(ProjectionError) {
        let count = try reader.readCount(elementBytesMin: 2)
        for _ in 0..<count {
            let key = try Key(from: &reader)
            guard insert(key, try Value(from: &reader)) else {
                throw .invalidCheckpoint(reason: "duplicate key \(key)")
            }
        }
    }
}

extension Set: StateCodable where Element: StateCodable & Comparable {
    func encode(to writer: inout BinaryWriter) { sorted().encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self = Set(try [Element](from: &reader)) }
}

/// Written as a `Set` is (sorted), so the bytes do not depend on which of the two holds it.
extension TreeSet: StateCodable where Element: StateCodable & Comparable {
    func encode(to writer: inout BinaryWriter) { sorted().encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self = TreeSet(try [Element](from: &reader)) }
}
