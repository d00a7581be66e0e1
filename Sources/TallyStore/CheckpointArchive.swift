import Crypto
import Foundation
import GRDB
import Synchronization
import TallyProjections
import TallySQLiteEncryption

/// What grows with history and is not kept in memory: the entries of the engine's archived
/// maps (the undo history first), written by each checkpoint beside its file
/// (Docs/Engine.md, "Checkpoints and the archive").
///
/// A checkpoint at sequence number C writes the entries that changed since the checkpoint its
/// state was read from, each at version C, and lists C with its chain value; the entries of C
/// are then, per key, the row with the highest version at or below C. So the two checkpoint
/// files the engine keeps both stay readable while newer rows are added, and versions no kept
/// checkpoint reads are pruned (``prune(keysOf:keeping:)``).
///
/// Like the read-side store, an SQLite database (GRDB, WAL) whose every page is sealed
/// (`TallySQLiteEncryption`); unlike it, writes are synced (`synchronous = FULL`): a
/// checkpoint file is written only after the rows it needs are durable. `secure_delete` and a
/// truncated WAL after removals keep forgotten texts unrecoverable (P3).
public final class CheckpointArchive: Sendable {
    static let schemaVersion = 1

    /// The database file.
    public let path: String
    /// The archive's file name in the checkpoints folder.
    public static let fileName = "archive.sqlite"
    private let database: SealedDatabase

    /// Opens the archive at `path`, creating it when the file is new.
    /// - Parameters:
    ///   - key: the page key (`LedgerStore.pageKey(derivedFrom:)` or `LedgerStore.integrityKey`).
    ///   - scratch: an archive that lives only as long as one fold (a rebuild's, an audit's):
    ///     its writes are not synced, since a crash leaves nothing that is read again.
    /// - Throws: ``StoreError`` when SQLite refuses the file (a wrong key or a damaged page
    ///   included) or it has another schema.
    public init(path: String, key: SymmetricKey, scratch: Bool = false) throws(StoreError) {
        self.path = path
        // The WAL is cut back to 8 MiB after each checkpoint of it: a checkpoint's rows are
        // one large transaction, and the WAL would otherwise keep its largest size.
        database = try SealedDatabase(
            path: path, key: key,
            pragmas: "PRAGMA synchronous = \(scratch ? "OFF" : "FULL"); PRAGMA secure_delete = ON; PRAGMA journal_size_limit = 8388608",
            schema: "checkpoint archive", schemaVersion: Self.schemaVersion,
            create: { database in
                try database.execute(sql: """
                    CREATE TABLE entries (
                        space INTEGER NOT NULL,
                        key BLOB NOT NULL,
                        version INTEGER NOT NULL,
                        value BLOB NOT NULL,
                        PRIMARY KEY (space, key, version)) WITHOUT ROWID;
                    CREATE TABLE checkpoints (
                        sequence INTEGER PRIMARY KEY,
                        chain BLOB NOT NULL);
                    """)
            })
    }

    /// The database file at `path` and the files SQLite keeps beside it.
    public static func files(at path: String) -> [String] { SealedDatabase.files(at: path) }

    /// Removes the archive's files; missing files are fine.
    public static func remove(at path: String) { SealedDatabase.remove(at: path) }

    /// The checkpoints whose rows are all here: their chain value by sequence number.
    public func checkpoints() throws(StoreError) -> [UInt64: [UInt8]] {
        try read { database in
            var listed: [UInt64: [UInt8]] = [:]
            for row in try GRDB.Row.fetchAll(database, sql: "SELECT sequence, chain FROM checkpoints") {
                let sequence: Int64 = try row.decode(Int64.self, forColumn: "sequence")
                let chain: Data = try row.decode(Data.self, forColumn: "chain")
                guard sequence >= 0 else { throw StoreError.invalidRow(path: path, table: "checkpoints", reason: "negative sequence") }
                listed[UInt64(sequence)] = [UInt8](chain)
            }
            return listed
        }
    }

    /// Writes `rows` at version `sequence` and lists the checkpoint, in one synced transaction.
    public func write(_ rows: some Sequence<ArchiveRow>, checkpoint sequence: UInt64, chain: [UInt8]) throws(StoreError) {
        try write { database in
            let insert = try database.cachedStatement(sql: "INSERT OR REPLACE INTO entries (space, key, version, value) VALUES (?, ?, ?, ?)")
            let version = Int64(bitPattern: sequence)
            for row in rows {
                try insert.execute(arguments: [Int64(row.space), Data(row.key), version, Data(row.value)])
            }
            try database.execute(
                sql: "INSERT OR REPLACE INTO checkpoints (sequence, chain) VALUES (?, ?)", arguments: [version, Data(chain)])
        }
    }

    /// Drops what no kept checkpoint reads: listings of other checkpoints, and for each key of
    /// `rows` (the keys just written again) the versions older than the one the oldest kept
    /// checkpoint reads.
    public func prune(keysOf rows: some Sequence<ArchiveRow>, keeping kept: [UInt64]) throws(StoreError) {
        guard let oldest = kept.min() else { return }
        try write { database in
            let delete = try database.cachedStatement(sql: """
                DELETE FROM entries WHERE space = ?1 AND key = ?2 AND version <
                    (SELECT MAX(version) FROM entries WHERE space = ?1 AND key = ?2 AND version <= ?3)
                """)
            for row in rows {
                try delete.execute(arguments: [Int64(row.space), Data(row.key), Int64(bitPattern: oldest)])
            }
            let listed = kept.map { String(Int64(bitPattern: $0)) }.joined(separator: ",")
            try database.execute(sql: "DELETE FROM checkpoints WHERE sequence NOT IN (\(listed))")
        }
    }

    /// Removes every row and listing newer than `sequence` (what a checkpoint that was not
    /// used, or a journal cut shorter, left), so that reads as of later checkpoints never meet
    /// them.
    public func discard(after sequence: UInt64) throws(StoreError) {
        let version = Int64(bitPattern: sequence)
        try write { database in
            // Rows are written in the transaction that lists their checkpoint: without a newer
            // listing there is no newer row, and the open skips a scan of the whole archive.
            guard try Int64.fetchOne(database, sql: "SELECT MAX(sequence) FROM checkpoints") ?? 0 > version else { return }
            try database.execute(sql: "DELETE FROM entries WHERE version > ?", arguments: [version])
            try database.execute(sql: "DELETE FROM checkpoints WHERE sequence > ?", arguments: [version])
        }
    }

    /// Removes every row and listing older than `sequence` (all of them by default), then
    /// truncates the WAL: after a forgetting, no page with the person's texts survives (P3).
    public func removeAll(before sequence: UInt64 = .max) throws(StoreError) {
        let version = sequence > UInt64(Int64.max) ? Int64.max : Int64(sequence)
        try write { database in
            try database.execute(sql: "DELETE FROM entries WHERE version < ?", arguments: [version])
            try database.execute(sql: "DELETE FROM checkpoints WHERE sequence < ?", arguments: [version])
        }
        try database.truncateWriteAheadLog()
    }

    /// The value of `key` as of checkpoint `sequence`, or nil when it has none.
    public func value(space: UInt8, key: [UInt8], asOf sequence: UInt64) throws(StoreError) -> [UInt8]? {
        try database.readOneStatement { database in
            let statement = try database.cachedStatement(sql: """
                SELECT value FROM entries WHERE space = ? AND key = ? AND version <= ? ORDER BY version DESC LIMIT 1
                """)
            return try Data.fetchOne(statement, arguments: [Int64(space), Data(key), Int64(bitPattern: sequence)]).map { [UInt8]($0) }
        }
    }

    /// Every entry of `space` whose key lies in `lower...upper` (all of them when nil), as of
    /// checkpoint `sequence`, in key order.
    public func entries(
        space: UInt8, from lower: [UInt8]? = nil, through upper: [UInt8]? = nil, asOf sequence: UInt64
    ) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        var condition = ""
        var arguments: StatementArguments = []
        if let lower, let upper {
            condition = " AND key BETWEEN ? AND ?"
            arguments = [Data(lower), Data(upper)]
        }
        return try entries(space: space, asOf: sequence, where: condition, arguments, limit: nil)
    }

    /// Up to `limit` entries of `space` as of checkpoint `sequence` whose keys come after `key`
    /// (from the first when nil), in key order: a space read page by page, in bounded memory
    /// (the audit compares two archives so).
    public func entries(space: UInt8, after key: [UInt8]?, limit: Int, asOf sequence: UInt64) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        try entries(space: space, asOf: sequence, where: key == nil ? "" : " AND key > ?", key.map { [Data($0)] } ?? [], limit: limit)
    }

    private func entries(
        space: UInt8, asOf sequence: UInt64, where condition: String, _ arguments: StatementArguments, limit: Int?
    ) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        try database.readOneStatement { database in
            var sql = "SELECT key, value, MAX(version) FROM entries WHERE space = ? AND version <= ?" + condition + " GROUP BY key ORDER BY key"
            if let limit { sql += " LIMIT \(limit)" }
            return try GRDB.Row.fetchAll(database, sql: sql, arguments: [Int64(space), Int64(bitPattern: sequence)] + arguments).map { row in
                ([UInt8](try row.decode(Data.self, atIndex: 0)), [UInt8](try row.decode(Data.self, atIndex: 1)))
            }
        }
    }

    /// Closes the database; later calls throw.
    public func close() { database.close() }

    private func write(_ body: (Database) throws -> Void) throws(StoreError) { try database.write(body) }

    private func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T { try database.read(body) }
}

/// Reads an archive as of the newest checkpoint the engine's state was settled against, for
/// the maps that keep only their recent entries in memory. Shared by every copy of the state;
/// the engine advances ``sequenceNumber`` after each checkpoint it settles.
///
/// A read that fails (I/O, a damaged page) is remembered in ``failure`` and reads as absent;
/// the engine checks ``failure`` before it writes anything validated with such a read.
public final class ArchiveReader: ArchiveSource {
    public let archive: CheckpointArchive
    private let state: Mutex<(sequenceNumber: UInt64, failure: StoreError?)>

    public init(archive: CheckpointArchive, asOf sequenceNumber: UInt64) {
        self.archive = archive
        self.state = Mutex((sequenceNumber, nil))
    }

    /// The checkpoint the reads are as of.
    public var sequenceNumber: UInt64 {
        get { state.withLock { $0.sequenceNumber } }
        set { state.withLock { $0.sequenceNumber = newValue } }
    }

    /// The first read that failed, if any.
    public var failure: StoreError? { state.withLock { $0.failure } }

    /// Records a failure (also one found while decoding what was read).
    public func fail(_ error: StoreError) {
        state.withLock { if $0.failure == nil { $0.failure = error } }
    }

    /// Records bytes read that could not be decoded.
    public func failDecoding(_ reason: String) {
        fail(.invalidRow(path: archive.path, table: "entries", reason: reason))
    }

    /// The value of `key` in `space`, or nil (absent, or the read failed: see ``failure``).
    public func value(space: UInt8, key: [UInt8]) -> [UInt8]? {
        do {
            return try archive.value(space: space, key: key, asOf: sequenceNumber)
        } catch {
            fail(error)
            return nil
        }
    }

    /// The entries of `space` with keys in `lower...upper` (every entry when nil), in key order.
    public func entries(space: UInt8, from lower: [UInt8]? = nil, through upper: [UInt8]? = nil) -> [(key: [UInt8], value: [UInt8])] {
        do {
            return try archive.entries(space: space, from: lower, through: upper, asOf: sequenceNumber)
        } catch {
            fail(error)
            return []
        }
    }
}
