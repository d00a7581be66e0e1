/// The 96-byte header of a batch frame (see Docs/JournalFormat.md).
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `TFRM` |
/// | 4 | 2 | flags: bit 0 = LZ4, bit 1 = AES-GCM encrypted |
/// | 6 | 2 | key id (encryption key rotation; 0 when not encrypted) |
/// | 8 | 4 | stored payload length |
/// | 12 | 4 | raw (uncompressed) payload length |
/// | 16 | 8 | first sequence number |
/// | 24 | 4 | record count |
/// | 28 | 4 | records before this frame not yet durable when it was written (0 when everything before it was synced) |
/// | 32 | 8 | first record's recordedAt (ms since epoch, UTC) |
/// | 40 | 8 | last record's recordedAt |
/// | 48 | 12 | nonce (zero when not encrypted) |
/// | 60 | 32 | chain value after this frame: H(previous ‖ bytes 0..<60 ‖ stored payload) |
/// | 92 | 4 | CRC32C of bytes 0..<92 and the stored payload |
struct FrameHeader: Sendable, Hashable {
    static let size = 96
    static let magic: [UInt8] = Array("TFRM".utf8)
    static let compressedFlag: UInt16 = 1
    static let encryptedFlag: UInt16 = 2
    static let chainedBytes = 60
    static let checksummedBytes = 92

    var flags: UInt16
    var keyID: UInt16 = 0
    var storedLength: Int
    var rawLength: Int
    var firstSequenceNumber: UInt64
    var recordCount: Int
    /// How many records before this frame were written but not yet synced when it was
    /// written: a damaged frame followed by a valid one is a torn write only when the valid one
    /// was written before the damaged one was durable (`TornWrite`). Written as 0 by builds
    /// before issue 13, which synced... or not: 0 claims the least, so it is always safe.
    var unsyncedRecordsBefore: UInt32 = 0
    var firstRecordedAt: Int64
    var lastRecordedAt: Int64
    var nonce: [UInt8] = [UInt8](repeating: 0, count: 12)
    var chainValue: ChainValue = .genesis
    var checksum: UInt32 = 0

    var isCompressed: Bool { flags & Self.compressedFlag != 0 }
    var isEncrypted: Bool { flags & Self.encryptedFlag != 0 }
    var lastSequenceNumber: UInt64 { firstSequenceNumber + UInt64(recordCount) - 1 }
    var frameBytes: Int { Self.size + storedLength }

    /// The first 60 bytes: what the hash chain covers besides the payload.
    func chainedFields() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        bytes.append(contentsOf: Self.magic)
        bytes.appendLittleEndian(flags)
        bytes.appendLittleEndian(keyID)
        bytes.appendLittleEndian(UInt32(storedLength))
        bytes.appendLittleEndian(UInt32(rawLength))
        bytes.appendLittleEndian(firstSequenceNumber)
        bytes.appendLittleEndian(UInt32(recordCount))
        bytes.appendLittleEndian(unsyncedRecordsBefore)
        bytes.appendLittleEndian(firstRecordedAt)
        bytes.appendLittleEndian(lastRecordedAt)
        bytes.append(contentsOf: nonce)
        precondition(bytes.count == Self.chainedBytes)
        return bytes
    }

    /// Parses the fixed fields and checks them against the format's hard limits. The checksum
    /// and chain are checked by the caller, who has the payload.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<FrameHeader, FrameHeaderDefect> {
        guard bytes.count >= size else { return .failure(.tooShort) }
        guard bytes.prefix(4).elementsEqual(magic) else { return .failure(.badMagic) }
        let flags = bytes.loadLittleEndian(at: 4, as: UInt16.self)
        guard flags & ~(compressedFlag | encryptedFlag) == 0 else { return .failure(.unknownFlags) }
        let storedLength = Int(bytes.loadLittleEndian(at: 8, as: UInt32.self))
        let rawLength = Int(bytes.loadLittleEndian(at: 12, as: UInt32.self))
        let recordCount = Int(bytes.loadLittleEndian(at: 24, as: UInt32.self))
        let firstSequence = bytes.loadLittleEndian(at: 16, as: UInt64.self)
        guard rawLength <= JournalLimits.frameBytesHardMax,
              storedLength <= JournalLimits.frameBytesHardMax + 64 * 1024,
              flags & compressedFlag != 0 || flags & encryptedFlag != 0 || storedLength == rawLength,
              (flags & encryptedFlag == 0) == (bytes.loadLittleEndian(at: 6, as: UInt16.self) == 0),
              recordCount >= 1, recordCount <= JournalLimits.recordsPerFrameHardMax,
              recordCount * 4 <= rawLength,
              firstSequence >= 1, firstSequence <= UInt64.max - UInt64(recordCount),
              UInt64(bytes.loadLittleEndian(at: 28, as: UInt32.self)) < firstSequence  // unsynced records before it exist
        else { return .failure(.lengthsOutOfLimits) }
        return .success(FrameHeader(
            flags: flags,
            keyID: bytes.loadLittleEndian(at: 6, as: UInt16.self),
            storedLength: storedLength,
            rawLength: rawLength,
            firstSequenceNumber: firstSequence,
            recordCount: recordCount,
            unsyncedRecordsBefore: bytes.loadLittleEndian(at: 28, as: UInt32.self),
            firstRecordedAt: bytes.loadLittleEndian(at: 32, as: Int64.self),
            lastRecordedAt: bytes.loadLittleEndian(at: 40, as: Int64.self),
            nonce: Array(bytes[48..<60]),
            chainValue: ChainValue(unchecked: Array(bytes[60..<92])),
            checksum: bytes.loadLittleEndian(at: 92, as: UInt32.self)))
    }

    enum FrameHeaderDefect: Error, Hashable, CustomStringConvertible {
        case tooShort, badMagic, unknownFlags, lengthsOutOfLimits

        var description: String {
            switch self {
            case .tooShort: "fewer than \(FrameHeader.size) bytes left for a frame header"
            case .badMagic: "no frame magic TFRM"
            case .unknownFlags: "unknown frame flags"
            case .lengthsOutOfLimits: "frame lengths, record count or sequence number outside the format's limits"
            }
        }
    }
}
