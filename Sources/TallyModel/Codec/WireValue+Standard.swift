extension String: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) { self = try reader.readString() }
    package func write(to writer: inout BinaryWriter) { writer.writeString(self) }
}

extension Bool: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        switch try reader.readByte() {
        case 0: self = false
        case 1: self = true
        case let other: throw .invalidValue(field: "Bool", reason: "byte \(other) is not 0 or 1", offset: start)
        }
    }

    package func write(to writer: inout BinaryWriter) { writer.writeByte(self ? 1 : 0) }
}

extension Int64: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) { self = try reader.readVarInt() }
    package func write(to writer: inout BinaryWriter) { writer.writeVarInt(self) }
}

/// Unsigned LEB128 (sequence numbers).
extension UInt64: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) { self = try reader.readVarUInt() }
    package func write(to writer: inout BinaryWriter) { writer.writeVarUInt(self) }
}

extension Int: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let start = reader.offset
        guard let value = Int(exactly: try reader.readVarInt()) else {
            throw .invalidValue(field: "Int", reason: "does not fit this platform's Int", offset: start)
        }
        self = value
    }

    package func write(to writer: inout BinaryWriter) { writer.writeVarInt(Int64(self)) }
}

/// An optional is a presence byte (0 absent, 1 present) followed by the value when present.
extension Optional: WireValue where Wrapped: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self = try Bool(from: &reader) ? Wrapped(from: &reader) : nil
    }

    package func write(to writer: inout BinaryWriter) {
        switch self {
        case .none: writer.writeByte(0)
        case .some(let value):
            writer.writeByte(1)
            value.write(to: &writer)
        }
    }
}

/// An array is a varint count followed by the elements.
extension Array: WireValue where Element: WireValue {
    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        let count = try reader.readCount(elementBytesMin: Element.wireBytesMin)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try Element(from: &reader)) }
        self = elements
    }

    package func write(to writer: inout BinaryWriter) {
        writer.writeVarUInt(UInt64(count))
        for element in self { element.write(to: &writer) }
    }
}
