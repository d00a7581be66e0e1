import SystemPackage
import TallyJournal
import TallyModel

/// The layouts before `TALLYPK3`, still read; the first write to such a file replaces it by a
/// `TALLYPK3` file (`PersonalKeyRing`). Each was rewritten whole at every change:
///
/// - `TALLYPK2`: magic (8), acknowledged through (8), entry count (4), per entry the person id
///   (16) then `1` and the 32-byte key or `2` (forgotten), CRC32C of everything before (4);
/// - `TALLYPK1`: the same without the acknowledged-through field (evidence of nothing);
/// - `TALLYPKE`: the magic, then `JournalEncryption.sealBlob` of a `TALLYPK2` file (context:
///   the magic).
///
/// Recorded examples: `Tests/Fixtures/personal-keys-v2`, `-v1` and `-sealed`.
extension PersonalKeyFile {
    static let magicVersion2: [UInt8] = Array("TALLYPK2".utf8)
    static let magicVersion1: [UInt8] = Array("TALLYPK1".utf8)
    static let sealedMagicVersion2: [UInt8] = Array("TALLYPKE".utf8)

    /// The contents of a file in an older layout, or nil when `bytes` is in none of them.
    static func legacyContents(_ bytes: [UInt8], path: FilePath, encryption: JournalEncryption?) throws(LedgerError) -> Contents? {
        if bytes.starts(with: sealedMagicVersion2) {
            let sealed = Array(bytes.dropFirst(sealedMagicVersion2.count))
            return try decodeVersion2(try unseal(sealed, at: 0, context: sealedMagicVersion2, encryption: encryption), path: path)
        }
        guard bytes.starts(with: magicVersion2) || bytes.starts(with: magicVersion1) else { return nil }
        return try decodeVersion2(bytes, path: path)
    }

    /// Decodes a `TALLYPK2` or `TALLYPK1` file.
    private static func decodeVersion2(_ bytes: [UInt8], path: FilePath) throws(LedgerError) -> Contents {
        let isVersion1 = bytes.starts(with: magicVersion1)
        guard bytes.count >= magicVersion2.count + (isVersion1 ? 8 : 16), bytes.starts(with: magicVersion2) || isVersion1 else {
            throw damaged(path, at: 0, "not a TALLYPK2 (or TALLYPK1) file")
        }
        let body = Array(bytes.dropLast(checksumBytes))
        guard load32(bytes, at: bytes.count - checksumBytes) == CRC32C.checksum(body) else {
            throw damaged(path, at: 0, "checksum mismatch")
        }
        var reader = BinaryReader(Array(body.dropFirst(magicVersion2.count)))
        var contents = Contents()
        do {
            if !isVersion1 {
                contents.acknowledgedThrough = try reader.readRawBytes(count: 8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            let count = try reader.readRawBytes(count: 4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            try readEntries(count, from: &reader, into: &contents, path: path, offset: 0, refusingRepeats: false)
            try reader.finish()
        } catch let error as LedgerError {
            throw error
        } catch {
            throw damaged(path, at: 0, "\(error)")
        }
        return contents
    }
}
