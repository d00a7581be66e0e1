import Crypto
import GRDB
import GRDBSQLite

/// An SQLite database encrypted page by page with AES-GCM, opened through GRDB.
///
/// Every page of the database file and of its WAL is sealed with the key; the rollback
/// journal is refused (the database stays in WAL mode) and temporary files stay in memory
/// (`temp_store = MEMORY`). The layout, what stays clear and the cost are in
/// `Docs/Security.md`, "Encrypted read side".
///
/// ```swift
/// let pool = try EncryptedSQLite.openPool(atPath: folder + "/read.sqlite", key: key)
/// try pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
/// ```
///
/// Opening registers an SQLite VFS named `tally-encrypting` as the process's default VFS; it
/// opens every file whose database was not opened through this API with the VFS it wraps,
/// untouched.
public enum EncryptedSQLite {
    /// The bytes SQLite reserves at the end of every page for the nonce (12) and tag (16).
    public static let reservedBytesPerPage = PageCipher.trailerBytes

    /// Opens, creating it if needed, the encrypted database at `path` as a GRDB pool in WAL
    /// mode.
    ///
    /// - Parameters:
    ///   - path: the database file; its `-wal` and `-shm` files are made beside it.
    ///   - key: an AES key of 128, 192 or 256 bits, from the host (keychain).
    ///   - configuration: GRDB configuration; its `prepareDatabase` functions run before the
    ///     encryption setup and must not write.
    /// - Returns: the pool. Errors thrown later by its reads and writes are GRDB
    ///   `DatabaseError`s; ``typedError(for:databasePath:)`` turns those that come from
    ///   encryption into ``EncryptedSQLiteError``.
    /// - Throws: ``EncryptedSQLiteError`` for a bad key, a key conflict, a wrong key or
    ///   damaged pages (naming the file and page); GRDB's `DatabaseError` otherwise.
    public static func openPool(atPath path: String, key: SymmetricKey, configuration: Configuration = Configuration()) throws -> DatabasePool {
        guard [16, 24, 32].contains(key.bitCount / 8) else {
            throw EncryptedSQLiteError(code: .invalidKey, path: path, message: "the key has \(key.bitCount) bits; use 128, 192 or 256")
        }
        let vfs = try EncryptingVFS.shared.get()
        let databasePath = vfs.fullPath(path)
        let isOpenInProcess = try vfs.registry.register(databasePath: databasePath, key: key)
        // The key check opens the file with its own descriptor; while SQLite has the file open
        // in this process, closing that descriptor would drop SQLite's locks, and the open
        // pool has authenticated page 1 with this same key already.
        if !isOpenInProcess { try checkKey(databasePath: databasePath, cipher: PageCipher(key: key)) }
        var configuration = configuration
        configuration.prepareDatabase { db in try prepare(db) }
        do {
            return try DatabasePool(path: path, configuration: configuration)
        } catch {
            if let failure = vfs.registry.lastFailure(databasePath: databasePath) { throw failure }
            throw error
        }
    }

    /// The encryption failure behind `error`, thrown by a pool from
    /// ``openPool(atPath:key:configuration:)`` over the database at `databasePath`: the most
    /// recent one recorded for that database, naming the file and page. Nil when `error` is
    /// not an I/O error or nothing was recorded.
    public static func typedError(for error: any Error, databasePath: String) -> EncryptedSQLiteError? {
        if let error = error as? EncryptedSQLiteError { return error }
        guard let error = error as? DatabaseError,
              [SQLITE_IOERR, SQLITE_CANTOPEN].contains(error.resultCode.primaryResultCode.rawValue),
              case .success(let vfs) = EncryptingVFS.shared
        else { return nil }
        return vfs.registry.lastFailure(databasePath: vfs.fullPath(databasePath))
    }

    /// Runs on every connection before GRDB uses it.
    private static func prepare(_ db: Database) throws {
        // Room for the nonce and tag at the end of every page. Takes effect when the database
        // is created; an existing database keeps what its header (byte 20) says.
        var reservedBytes = Int32(reservedBytesPerPage)
        let result = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reservedBytes)
        guard result == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: result)) }
        // Sorts, temporary tables and statement journals stay in memory: no temporary file.
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
        if !db.configuration.readonly, try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
            // Switching a new database to WAL writes page 1 in a transaction that would use
            // a rollback journal; with journal_mode OFF it uses none (there is nothing to
            // roll back in an empty database). GRDB switches to WAL right after.
            try db.execute(sql: "PRAGMA journal_mode = OFF")
        }
    }
}
