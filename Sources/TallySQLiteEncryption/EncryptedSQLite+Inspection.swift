import Crypto
import Foundation

extension EncryptedSQLite {
    /// Every page a holder of `key` can read from the database at `path` and its WAL,
    /// decrypted and concatenated: free pages and old WAL frames included, that is everything
    /// SQLite left on disk, not only the live rows. For audits and tests of forgetting (P3): a
    /// text absent from this image cannot be recovered from the files with the key.
    /// Pages that do not authenticate are left out. Reads the files with their own
    /// descriptors: call it when no pool has the database open in this process.
    public static func readableImage(ofDatabaseAt path: String, key: SymmetricKey) -> [UInt8] {
        let cipher = PageCipher(key: key)
        guard let database = FileManager.default.contents(atPath: path), database.count >= PageCipher.databaseHeaderBytes else { return [] }
        let declared = Int(database[16]) << 8 | Int(database[17])
        let pageBytes = declared == 1 ? 65536 : declared
        guard PageCipher.isPageSize(pageBytes) else { return [] }
        var image: [UInt8] = []
        var page = [UInt8](repeating: 0, count: pageBytes)
        func append(_ bytes: Data, at offset: Int, place: PageCipher.Place) {
            guard offset + pageBytes <= bytes.count else { return }
            page.withUnsafeMutableBytes { buffer in
                bytes.copyBytes(to: buffer, from: offset..<(offset + pageBytes))
            }
            let opened: Bool = page.withUnsafeMutableBytes { buffer in (try? cipher.open(buffer, at: place)) != nil }
            if opened { image += page }
        }
        for index in 0..<(database.count / pageBytes) {
            append(database, at: index * pageBytes, place: .init(fileKind: .database, pageNumber: UInt32(index + 1), frameIndex: 0))
        }
        if let wal = FileManager.default.contents(atPath: path + "-wal") {
            let frameBytes = EncryptedFile.frameHeaderBytes + pageBytes
            var frame = 0
            while EncryptedFile.walHeaderBytes + frame * frameBytes + frameBytes <= wal.count {
                let header = EncryptedFile.walHeaderBytes + frame * frameBytes
                let pageNumber = wal[header..<(header + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                append(wal, at: header + EncryptedFile.frameHeaderBytes, place: .init(fileKind: .wal, pageNumber: pageNumber, frameIndex: UInt32(frame)))
                frame += 1
            }
        }
        return image
    }
}
