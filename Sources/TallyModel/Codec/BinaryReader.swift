/// Reads values in Tally's binary encoding (the inverse of ``BinaryWriter``) with bounds checks.
///
/// Every read checks the remaining bytes first and throws ``EventCodecError`` instead of
/// trapping; a length or count is checked against the remaining bytes before anything is
/// allocated, so a hostile length can never cause a large allocation.
public struct BinaryReader: Sendable {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int
    /// Opens sealed ``PersonalText`` while decoding; without one, sealed texts decode redacted.
    package var personalTextCipher: (any PersonalTextCipher)?
    /// The actor of the event being decoded, set by ``EventCodec`` before it reads the payload.
    package var eventActor: PersonID?
    /// Set while reading a layout older than ``PersonalText``, where free text was a plain
    /// string: it reads as readable text owned by ``eventActor``.
    package var readsPlainPersonalText = false
    /// The schema version of the event payload being read, set by ``EventCodec``; fields a
    /// later version added (``WireSince(_:)``) read as `nil` from it. `nil` reads every field.
    package var layoutVersion: UInt16?

    /// Creates a reader over `bytes`, starting at offset 0.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// The number of bytes not read yet.
    public var remainingCount: Int { bytes.count - offset }

    /// Reads one byte.
    /// - Throws: ``EventCodecError/truncated(offset:)`` at the end.
    public mutating func readByte() throws(EventCodecError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads an unsigned LEB128 varint in its minimal form.
    /// - Throws: ``EventCodecError/truncated(offset:)``, or
    ///   ``EventCodecError/invalidValue(field:reason:offset:)`` for more than 64 bits or a
    ///   non-minimal form (a final zero byte after the first), which keeps encodings canonical.
    public mutating func readVarUInt() throws(EventCodecError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            let chunk = UInt64(byte & 0x7F)
            guard shift < 63 || (shift == 63 && chunk <= 1) else {
                throw .invalidValue(field: "varint", reason: "more than 64 bits", offset: start)
            }
            result |= chunk << shift
            if byte & 0x80 == 0 {
                guard byte != 0 || shift == 0 else {
                    throw .invalidValue(field: "varint", reason: "not in minimal form", offset: start)
                }
                return result
            }
            shift += 7
        }
    }

    /// Reads a zigzag-mapped signed varint.
    /// - Throws: as ``readVarUInt()``.
    public mutating func readVarInt() throws(EventCodecError) -> Int64 {
        let raw = try readVarUInt()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// Reads a count of elements that each take at least `elementBytesMin` bytes, rejecting a
    /// count the remaining bytes cannot hold (before anything is allocated).
    /// - Throws: ``EventCodecError/truncated(offset:)`` when the count is too large.
    public mutating func readCount(elementBytesMin: Int) throws(EventCodecError) -> Int {
        let start = offset
        let count = try readVarUInt()
        guard count <= UInt64(remainingCount / Swift.max(1, elementBytesMin)) else {
            throw .truncated(offset: start)
        }
        return Int(count)
    }

    /// Reads `count` raw bytes.
    /// - Throws: ``EventCodecError/truncated(offset:)`` when fewer remain.
    public mutating func readRawBytes(count: Int) throws(EventCodecError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remainingCount else { throw .truncated(offset: offset) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Reads a varint length and that many bytes.
    /// - Throws: ``EventCodecError/truncated(offset:)``.
    public mutating func readLengthPrefixed() throws(EventCodecError) -> ArraySlice<UInt8> {
        try readRawBytes(count: readCount(elementBytesMin: 1))
    }

    /// Reads a length-prefixed UTF-8 string.
    /// - Throws: ``EventCodecError/truncated(offset:)``, or
    ///   ``EventCodecError/invalidValue(field:reason:offset:)`` for invalid UTF-8.
    public mutating func readString() throws(EventCodecError) -> String {
        let start = offset
        let utf8 = try readLengthPrefixed()
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw .invalidValue(field: "string", reason: "invalid UTF-8", offset: start)
        }
        return string
    }

    /// Reads 16 raw bytes as a UUID.
    /// - Throws: ``EventCodecError/truncated(offset:)``.
    public mutating func readUUID() throws(EventCodecError) -> UUIDValue {
        guard remainingCount >= 16 else { throw .truncated(offset: offset) }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in offset..<offset + 8 { high = high << 8 | UInt64(bytes[index]) }
        for index in offset + 8..<offset + 16 { low = low << 8 | UInt64(bytes[index]) }
        offset += 16
        return UUIDValue(high: high, low: low)
    }

    /// Checks that every byte was read.
    /// - Throws: ``EventCodecError/trailingBytes(offset:count:)`` otherwise.
    public func finish() throws(EventCodecError) {
        guard remainingCount == 0 else { throw .trailingBytes(offset: offset, count: remainingCount) }
    }
}
