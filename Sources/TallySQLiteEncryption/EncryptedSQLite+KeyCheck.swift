import Foundation

extension EncryptedSQLite {
    /// Opens page 1 of an existing database file with the key before SQLite sees the files.
    ///
    /// Without it, a wrong key would reach SQLite's WAL recovery first: every frame would fail
    /// authentication, SQLite would take the WAL as empty, and on closing it would checkpoint
    /// nothing and delete the WAL with the committed transactions in it. A database file
    /// shorter than its header is new and has nothing to check.
    static func checkKey(databasePath: String, cipher: PageCipher) throws(EncryptedSQLiteError) {
        guard let file = FileHandle(forReadingAtPath: databasePath) else { return }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: PageCipher.databaseHeaderBytes),
              header.count == PageCipher.databaseHeaderBytes
        else { return }
        let declared = Int(header[header.startIndex + 16]) << 8 | Int(header[header.startIndex + 17])
        let pageBytes = declared == 1 ? 65536 : declared
        let failure = { (message: String) in
            EncryptedSQLiteError(code: .pageAuthenticationFailed, path: databasePath, pageNumber: 1, offset: 0, message: message)
        }
        guard PageCipher.isPageSize(pageBytes) else {
            throw failure("the database header declares a page size of \(declared) bytes: the file is damaged or not a database")
        }
        guard (try? file.seek(toOffset: 0)) != nil, var page = try? file.read(upToCount: pageBytes), page.count == pageBytes else {
            return  // SQLite reports a short file itself
        }
        do {
            try page.withUnsafeMutableBytes { bytes in
                try cipher.open(bytes, at: .init(fileKind: .database, pageNumber: 1, frameIndex: 0))
            }
        } catch {
            throw failure("page 1 failed authentication: the key is wrong or the file was altered")
        }
    }
}
