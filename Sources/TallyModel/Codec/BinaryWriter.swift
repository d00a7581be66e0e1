/// Appends values in Tally's compact binary encoding to a byte array.
///
/// Encoding rules (see `Docs/Events.md`): unsigned integers as LEB128 varints, signed integers
/// zigzag-mapped and then LEB128, strings and byte arrays as a varint length followed by the
/// bytes, UUIDs as 16 raw bytes.
public struct BinaryWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    /// Seals ``PersonalText`` while encoding; without one, texts are written readable
    /// (checkpoints, which are removed when a person is forgotten).
    package var personalTextCipher: (any PersonalTextCipher)?

    /// Creates an empty writer.
    /// - Parameter capacity: bytes to reserve up front.
    public init(reservingCapacity capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    public mutating func writeByte(_ byte: UInt8) { bytes.append(byte) }

    /// Appends bytes as they are, without a length.
    public mutating func writeRawBytes(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends an unsigned LEB128 varint (1 to 10 bytes, minimal form).
    public mutating func writeVarUInt(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: remaining))
    }

    /// Appends a signed integer as a zigzag-mapped varint (0, -1, 1, -2... map to 0, 1, 2, 3...).
    public mutating func writeVarInt(_ value: Int64) {
        writeVarUInt(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends a varint length followed by the bytes.
    public mutating func writeLengthPrefixed(_ payload: some Collection<UInt8>) {
        writeVarUInt(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends a string as its UTF-8 byte count (varint) and the UTF-8 bytes.
    public mutating func writeString(_ string: String) {
        let utf8 = string.utf8
        writeVarUInt(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Appends the 16 bytes of a UUID, big-endian, without a length.
    public mutating func writeUUID(_ uuid: UUIDValue) {
        writeFixedWidth(uuid.high)
        writeFixedWidth(uuid.low)
    }

    private mutating func writeFixedWidth(_ value: UInt64) {
        var shift: UInt64 = 56
        while true {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            if shift == 0 { break }
            shift -= 8
        }
    }
}
