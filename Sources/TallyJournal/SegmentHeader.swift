/// The 64-byte header at the start of every segment file (see Docs/JournalFormat.md).
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `TALLYSEG` |
/// | 8 | 2 | format version (1) |
/// | 10 | 2 | flags: bit 0 = keyed (HMAC) chain |
/// | 12 | 4 | reserved, zero |
/// | 16 | 8 | first sequence number |
/// | 24 | 32 | chain value the segment starts from |
/// | 56 | 4 | reserved, zero |
/// | 60 | 4 | CRC32C of bytes 0..<60 |
struct SegmentHeader: Sendable, Hashable {
    static let size = 64
    static let magic: [UInt8] = Array("TALLYSEG".utf8)
    static let formatVersion: UInt16 = 1
    static let keyedChainFlag: UInt16 = 1

    var firstSequenceNumber: UInt64
    var chainStart: ChainValue
    var isKeyedChain: Bool

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        bytes.append(contentsOf: Self.magic)
        bytes.appendLittleEndian(Self.formatVersion)
        bytes.appendLittleEndian(isKeyedChain ? Self.keyedChainFlag : 0)
        bytes.appendLittleEndian(UInt32(0))
        bytes.appendLittleEndian(firstSequenceNumber)
        bytes.append(contentsOf: chainStart.bytes)
        bytes.appendLittleEndian(UInt32(0))
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        precondition(bytes.count == Self.size)
        return bytes
    }

    /// Parses and checks a header; the error says what is wrong with it.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<SegmentHeader, HeaderDefect> {
        guard bytes.count >= size else { return .failure(.tooShort(bytes.count)) }
        guard bytes.prefix(8).elementsEqual(magic) else { return .failure(.badMagic) }
        let storedCRC = bytes.loadLittleEndian(at: 60, as: UInt32.self)
        let computed = CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: bytes[0..<60]))
        guard storedCRC == computed else { return .failure(.checksumMismatch) }
        let version = bytes.loadLittleEndian(at: 8, as: UInt16.self)
        guard version == formatVersion else { return .failure(.unsupportedVersion(version)) }
        let flags = bytes.loadLittleEndian(at: 10, as: UInt16.self)
        guard flags & ~keyedChainFlag == 0,
              bytes.loadLittleEndian(at: 12, as: UInt32.self) == 0,
              bytes.loadLittleEndian(at: 56, as: UInt32.self) == 0
        else { return .failure(.unknownFlags) }
        // Sequence numbers start at 1; readers and recovery compute "next - 1" from this.
        let firstSequenceNumber = bytes.loadLittleEndian(at: 16, as: UInt64.self)
        guard firstSequenceNumber >= 1 else { return .failure(.firstSequenceZero) }
        return .success(SegmentHeader(
            firstSequenceNumber: firstSequenceNumber,
            chainStart: ChainValue(unchecked: Array(bytes[24..<56])),
            isKeyedChain: flags & keyedChainFlag != 0))
    }

    enum HeaderDefect: Error, Hashable, CustomStringConvertible {
        case tooShort(Int), badMagic, checksumMismatch, unsupportedVersion(UInt16), unknownFlags, firstSequenceZero

        var description: String {
            switch self {
            case .tooShort(let count): "segment header is \(count) bytes, needs \(SegmentHeader.size)"
            case .badMagic: "segment does not start with TALLYSEG"
            case .checksumMismatch: "segment header checksum does not match"
            case .unsupportedVersion(let version): "segment format version \(version) is not supported (this build reads 1)"
            case .unknownFlags: "segment header has unknown flags or non-zero reserved bytes"
            case .firstSequenceZero: "segment header says the first sequence number is 0; sequence numbers start at 1"
            }
        }
    }
}
