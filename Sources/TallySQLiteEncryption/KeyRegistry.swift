import Crypto
import Foundation
import Synchronization

/// Which databases are encrypted, with which key, and what last failed on each.
///
/// Keyed by the database's full path as the wrapped VFS canonicalises it (`xFullPathname`),
/// which is the name SQLite hands to `xOpen`. A key is dropped when the last file of its
/// database closes, so it stays in memory only while a pool is open.
final class KeyRegistry: Sendable {
    struct Entry {
        var cipher: PageCipher?
        var keyBytes: [UInt8]?
        var openFiles = 0
        var lastFailure: EncryptedSQLiteError?
    }

    /// What `xOpen` should do with a file.
    enum Decision {
        case passThrough
        case encrypt(PageCipher)
        case refuse(EncryptedSQLiteError)
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Registers `key` for the database at `databasePath` before a pool opens it.
    /// - Returns: whether files of that database are open in this process already (with the
    ///   same key): then SQLite holds locks on them that closing any other descriptor of the
    ///   file would release (POSIX advisory locks are per process), so nothing else may open it.
    @discardableResult
    func register(databasePath: String, key: SymmetricKey) throws(EncryptedSQLiteError) -> Bool {
        let keyBytes = key.withUnsafeBytes { [UInt8]($0) }
        return try entries.withLock { entries throws(EncryptedSQLiteError) -> Bool in
            var entry = entries[databasePath] ?? Entry()
            if entry.openFiles > 0, let current = entry.keyBytes, current != keyBytes {
                throw EncryptedSQLiteError(
                    code: .keyConflict, path: databasePath,
                    message: "the database is open in this process with another key; close its pool first")
            }
            entry.keyBytes = keyBytes
            entry.cipher = PageCipher(key: key)
            entry.lastFailure = nil
            entries[databasePath] = entry
            return entry.openFiles > 0
        }
    }

    /// Decides how to open a file of the database at `databasePath`, and counts it as open
    /// when it will be encrypted.
    func openingFile(databasePath: String, isRollbackJournal: Bool, filePath: String) -> Decision {
        entries.withLock { entries in
            guard var entry = entries[databasePath] else { return .passThrough }
            guard let cipher = entry.cipher else {
                let failure = EncryptedSQLiteError(
                    code: .keyMissing, path: filePath,
                    message: "this database was opened encrypted in this process; open it with EncryptedSQLite and its key")
                entry.lastFailure = failure
                entries[databasePath] = entry
                return .refuse(failure)
            }
            if isRollbackJournal {
                let failure = EncryptedSQLiteError(
                    code: .rollbackJournalRefused, path: filePath,
                    message: "SQLite tried to write a rollback journal, which would hold pages in clear; an encrypted database must stay in WAL mode")
                entry.lastFailure = failure
                entries[databasePath] = entry
                return .refuse(failure)
            }
            entry.openFiles += 1
            entries[databasePath] = entry
            return .encrypt(cipher)
        }
    }

    /// Counts a file as closed; the key is forgotten with the database's last open file.
    func closedFile(databasePath: String) {
        entries.withLock { entries in
            guard var entry = entries[databasePath] else { return }
            entry.openFiles -= 1
            if entry.openFiles <= 0 {
                entry.openFiles = 0
                entry.cipher = nil
                entry.keyBytes = nil
            }
            entries[databasePath] = entry
        }
    }

    /// Records the most recent failure on the database, for ``EncryptedSQLite/typedError(for:databasePath:)``.
    func record(_ failure: EncryptedSQLiteError, databasePath: String) {
        entries.withLock { entries in
            entries[databasePath, default: Entry()].lastFailure = failure
        }
    }

    func lastFailure(databasePath: String) -> EncryptedSQLiteError? {
        entries.withLock { $0[databasePath]?.lastFailure }
    }
}
