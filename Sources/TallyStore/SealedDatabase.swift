import Crypto
import Foundation
import GRDB
import Synchronization
import TallySQLiteEncryption

/// An SQLite database of the ledger folder opened through `TallySQLiteEncryption` (every page
/// sealed), with typed errors and a schema version: what the read-side store (its read tables
/// and its checkpoint) is opened with.
struct SealedDatabase: Sendable {
    /// The database file.
    let path: String
    private let pool: DatabasePool

    /// Opens the database at `path` with `pragmas` run on every connection, creating its tables
    /// with `create` when the file is new (`user_version` 0), and checks the schema version and
    /// that the schema holds exactly what `create` makes (`name` names that schema).
    /// - Throws: ``StoreError/database(path:message:)`` when SQLite refuses the file (a wrong key
    ///   or a damaged page included); ``StoreError/unsupportedSchema(path:version:)``.
    /// - Parameter creatingTables: false to open an existing database only (an audit): one
    ///   without tables (`user_version` 0) is refused with ``StoreError/unsupportedSchema(path:version:)``
    ///   of version 0 instead of being made, and no file is created.
    init(
        path: String, key: SymmetricKey, pragmas: String, schema name: String, schemaVersion: Int, creatingTables: Bool = true,
        create: @escaping (Database) throws -> Void
    ) throws(StoreError) {
        self.path = path
        var configuration = Configuration()
        // Another process may hold the file for a moment (a reader's open or close beside the
        // writer, issue 29): wait for it instead of failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(Self.busyTimeoutSeconds)
        // Reader connections stay open until the pool closes (GRDB closes them on memory
        // pressure otherwise, on iOS): the writer, closed first, is then never the last
        // connection, the one SQLite copies the WAL into the main file with at its close
        // (`LedgerStore` copies it itself, renewing the store's epoch first).
        configuration.persistentReadOnlyConnections = true
        configuration.prepareDatabase { database in
            if !database.configuration.readonly { try database.execute(sql: "PRAGMA cache_size = -\(Self.pageCacheKibibytes)") }
            try database.execute(sql: pragmas)
        }
        // A new file is created 0600 here, for every database of the ledger and every scratch
        // one: SQLite gives the WAL and shared memory the database file's mode (E18, P3).
        if creatingTables { createPrivately(path) }
        do {
            pool = try EncryptedSQLite.openPool(atPath: path, key: key, configuration: configuration)
        } catch {
            throw Self.storeError(error, path: path)
        }
        let found = try run { database in try Int.fetchOne(database, sql: "PRAGMA user_version") ?? 0 }
        switch found {
        case 0 where !creatingTables:
            try? pool.close()
            throw .unsupportedSchema(path: path, version: 0)  // no tables yet: nothing in it
        case 0:
            try write { database in
                try create(database)
                try database.execute(sql: "PRAGMA user_version = \(schemaVersion)")
            }
        case schemaVersion: break
        default: throw .unsupportedSchema(path: path, version: found)
        }
        // Nothing but what `create` makes: a trigger, view, index or table added to the file
        // would be run or read by SQLite with every later write (an audit compares rows only).
        let schema = try run { database in try Self.schema(of: database) }
        let expected = try Self.expectedSchema(name: name, version: schemaVersion, create: create, path: path)
        if schema != expected {
            let extra = schema.subtracting(expected).map { "\($0.type) \($0.name)" }.sorted()
            let missing = expected.subtracting(schema).map { "\($0.type) \($0.name)" }.sorted()
            let parts = [(extra, "not made by it"), (missing, "missing or changed")].filter { !$0.0.isEmpty }
            throw .damaged(path: path, message: "its schema is not the one this version makes (\(parts.map { "\($0.1): \($0.0.joined(separator: ", "))" }.joined(separator: "; ")))")
        }
    }

    /// One object of a database's schema, as `sqlite_schema` lists it.
    struct SchemaObject: Hashable, Sendable {
        let type: String
        let name: String
        let table: String
        let sql: String?
    }

    /// Every object of `database`'s schema.
    private static func schema(of database: Database) throws -> Set<SchemaObject> {
        Set(try Row.fetchAll(database, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema").map { row in
            // Whitespace as written in the source does not count (a reflowed literal is the same schema).
            let sql: String? = row[3]
            return SchemaObject(type: row[0], name: row[1], table: row[2], sql: sql?.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        })
    }

    /// The schema `create` makes, by name and version, made once per process in an in-memory
    /// database.
    private static let expectedSchemas = Mutex<[String: Set<SchemaObject>]>([:])

    private static func expectedSchema(name: String, version: Int, create: (Database) throws -> Void, path: String) throws(StoreError) -> Set<SchemaObject> {
        let key = "\(name) \(version)"
        if let known = expectedSchemas.withLock({ $0[key] }) { return known }
        do {
            let made = try DatabaseQueue().write { database in
                try create(database)
                return try schema(of: database)
            }
            expectedSchemas.withLock { $0[key] = made }
            return made
        } catch {
            throw .database(path: path, message: "the expected schema could not be made in memory: \(error)")
        }
    }

    /// How long a statement waits for a lock another process holds: a reader opens or closes in
    /// milliseconds; a longer hold (a reader keeping a snapshot while a forgetting truncates the
    /// WAL) is still the error it was, not a writer stalled behind it.
    static let busyTimeoutSeconds: TimeInterval = 0.5

    /// The most the writer connection's page cache holds (SQLite's default, which readers keep,
    /// is 2,000 KiB). A write transaction larger than its cache spills pages to the WAL and,
    /// writing one of them again, makes SQLite read every later frame back at the commit to
    /// checksum it (each read a page to authenticate and decrypt here): a store commit of a
    /// 1,000-command batch or a checkpoint's archive rows is that size. The cache grows only as
    /// pages are used.
    static let pageCacheKibibytes = 32_768

    /// `error` from SQLite or the sealing VFS as a store error: damage (a page that fails its seal
    /// or SQLite's checks, not a database, another key) or a failure that may pass.
    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let sealing = EncryptedSQLite.typedError(for: error, databasePath: path) {
            switch sealing.code {
            case .pageAuthenticationFailed, .walFrameDamaged, .truncatedPage, .reservedBytesMissing:
                return .damaged(path: path, message: "\(sealing)")
            default:
                return .database(path: path, message: "\(sealing)")
            }
        }
        if let error = error as? DatabaseError,
           [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT].contains(error.resultCode.primaryResultCode) {
            return .damaged(path: path, message: "\(error)")
        }
        return .database(path: path, message: "\(error)")
    }

    /// The database file at `path` and the files SQLite keeps beside it (WAL, shared memory).
    static func files(at path: String) -> [String] {
        ["", "-wal", "-shm"].map { path + $0 }
    }

    /// Removes the database's files; missing files are fine.
    static func remove(at path: String) {
        for file in files(at: path) { _ = unlink(file) }
    }

    /// Runs `body` in one transaction.
    func write(_ body: (Database) throws -> Void) throws(StoreError) {
        try classified { try pool.write(body) }
    }

    /// Runs `body` outside a transaction on the writer connection.
    func run<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try classified { try pool.writeWithoutTransaction(body) }
    }

    /// Runs one statement's worth of reading on a reader connection without wrapping it in a
    /// transaction: a single `SELECT` is atomic in SQLite by itself, and a point read then costs
    /// the statement, not a `BEGIN`/`COMMIT` around it (what the archive's lookups of keys it
    /// mostly does not hold cost per command before). `body` must run one query statement.
    func readOneStatement<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try classified { try pool.unsafeRead(body) }
    }

    /// Runs `write` then `read` on the writer connection in one transaction that is rolled back:
    /// `read` sees what `write` wrote, and nothing of it is ever committed. A call made inside
    /// another (a read within such a read) runs `read` in the transaction already open.
    func readRollingBack<T>(_ write: (Database) throws -> Void, read: (Database) throws -> T) throws(StoreError) -> T {
        try classified {
            try pool.unsafeReentrantWrite { database in
                if database.isInsideTransaction { return try read(database) }
                var value: T?
                try database.inTransaction(.deferred) {
                    try write(database)
                    value = try read(database)
                    return .rollback
                }
                guard let value else { throw StoreError.database(path: path, message: "a read on pending rows returned nothing") }
                return value
            }
        }
    }

    /// Runs `body` on a reader connection.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try classified { try pool.read(body) }
    }

    /// Runs `operation`, turning what SQLite or GRDB throws into a ``StoreError`` (damage told
    /// from failures that may pass, ``storeError(_:path:)``).
    private func classified<T>(_ operation: () throws -> T) throws(StoreError) -> T {
        do {
            return try operation()
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Copies the WAL into the database and truncates it to zero bytes, so no old page image
    /// survives there (P3). A reader holding a snapshot makes SQLite report "busy" instead of
    /// failing: that is retried, then reported as an error.
    func truncateWriteAheadLog() throws(StoreError) {
        for _ in 0..<50 {
            if try !checkpointWriteAheadLog() { return }
            usleep(2_000)
        }
        throw .database(path: path, message: "the WAL could not be truncated: a reader kept it busy")
    }

    /// One `wal_checkpoint(TRUNCATE)`: whether a reader kept it busy.
    func checkpointWriteAheadLog() throws(StoreError) -> Bool {
        try run { database in
            try Row.fetchOne(database, sql: "PRAGMA wal_checkpoint(TRUNCATE)").map { (row: Row) -> Bool in
                (try row.decode(Int64.self, atIndex: 0)) != 0
            } ?? true
        }
    }

    /// Closes the database; later calls throw. With `checkpointing`, first copies the WAL into
    /// the database and truncates it, one attempt (a reader that keeps it busy is waited for no
    /// longer than the busy timeout, then the WAL stays for the next open):
    /// GRDB closes a pool's writer before its read-only readers, and SQLite's own cleanup at the
    /// last close runs only on a connection that can write, so the WAL (megabytes after a big
    /// apply) would otherwise stay beside the file.
    func close(checkpointing: Bool = false) {
        if checkpointing { _ = try? checkpointWriteAheadLog() }
        try? pool.close()
    }
}

/// Creates the file at `path` with mode 0600 when nothing is there (a free function: inside
/// `SealedDatabase`, `close` names its method).
private func createPrivately(_ path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
}
