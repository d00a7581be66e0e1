import Foundation
import GRDB
import Synchronization
import TallyModel
import TallyProjections

/// The checkpoint, in the store (Docs/Engine.md "Checkpoints in the store"): what the engine does not keep
/// in memory of history (the entries of its archived maps, one row per key in `history`; the
/// transaction book in `transactions`) and its live state as of the checkpoint (one row in
/// `checkpoint`), written in one transaction.
///
/// A `history` row needs no version: the engine's states in memory, settled at the checkpoint c
/// a row was written with, hold every key changed after c, so a row they read is the key's value
/// at their own sequence number whenever c <= it; the engine never reads the history through a
/// state older than the newest checkpoint (it hands out detached copies). The book's rows are
/// written by every commit, so they are read as of the checkpoint (``bookRecord(_:key:asOf:)``).
extension LedgerStore {
    /// Writes `rows` (entries of archived maps) as of `version` (the checkpoint's sequence
    /// number) and the live state `state` (the engine's encoded checkpoint) in one transaction.
    /// - Parameter replacingAll: the rows are every entry (a state that holds its whole
    ///   history in memory): what the table held before goes first.
    package func writeCheckpoint(_ rows: some Sequence<ArchiveRow>, version: UInt64, replacingAll: Bool, state: [UInt8]?) throws(StoreError) {
        try database.write { database in
            // The records commits kept for the previous checkpoint's state go with it.
            try database.execute(sql: replacingAll ? "DELETE FROM history" : "DELETE FROM history WHERE space IN \(StoreBook.spaceList)")
            try database.execute(sql: "INSERT OR REPLACE INTO history_version (id, version, complete) VALUES (1, ?, 1)", arguments: [Int64(bitPattern: version)])
            let insert = try database.cachedStatement(sql: "INSERT OR REPLACE INTO history (space, key, value, version) VALUES (?, ?, ?, ?)")
            let version = Int64(bitPattern: version)
            for row in rows {
                try insert.execute(arguments: [Int64(row.space), Data(row.key), Data(row.value), version])
            }
            if let state {
                try database.execute(sql: "INSERT OR REPLACE INTO checkpoint (id, state) VALUES (1, ?)", arguments: [Data(state)])
            }
        }
    }

    /// The largest checkpoint state read (1 GiB): a larger one is refused before it is read
    /// (STYLE 7), and the ledger opens by full replay.
    public static let checkpointBytesMax: Int64 = 1 << 30

    /// The live state the last checkpoint wrote (the engine's encoding), or nil when none was.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for one larger than
    ///   ``checkpointBytesMax``.
    package func checkpointState() throws(StoreError) -> [UInt8]? {
        let row = try database.read { database in
            try Row.fetchOne(database, sql: "SELECT length(state) AS size, CASE WHEN length(state) <= ? THEN state END AS state FROM checkpoint WHERE id = 1",
                             arguments: [Self.checkpointBytesMax])
        }
        guard let row else { return nil }
        let reader = StoreRowReader(path: path, table: "checkpoint")
        guard let bytes = try reader.column(row, "state", as: Data?.self) else {
            let size = try reader.column(row, "size", as: Int64?.self) ?? 0
            throw .invalidRow(path: path, table: "checkpoint", reason: "the state holds \(size) bytes, more than the \(Self.checkpointBytesMax) a checkpoint may have; not read")
        }
        return [UInt8](bytes)
    }

    /// Removes the checkpoint and every history row, then truncates the WAL: after a forgetting
    /// no page with the person's texts survives (P3); the next checkpoint writes them redacted.
    package func removeCheckpoint() throws(StoreError) {
        try database.write { database in
            try database.execute(sql: "DELETE FROM history")
            try database.execute(sql: "DELETE FROM history_version")
            try database.execute(sql: "DELETE FROM checkpoint")
        }
        try truncateWriteAheadLog()
    }

    /// The history value of `key` in `space`, or nil.
    /// - Parameter sequenceNumber: the checkpoint the reader is as of: a row a later checkpoint
    ///   wrote is refused (``StoreError/invalidRow(path:table:reason:)``), never read as the
    ///   key's value then (files of different moments put together, a rolled-back page).
    package func historyValue(space: UInt8, key: [UInt8], asOf sequenceNumber: UInt64 = .max) throws(StoreError) -> [UInt8]? {
        if let book = StoreBook(space: space) { return try bookRecord(book, key: key, asOf: sequenceNumber) }
        let row = try database.readOneStatement { database in
            let statement = try database.cachedStatement(sql: "SELECT value, version FROM history WHERE space = ? AND key = ?")
            return try Row.fetchOne(statement, arguments: [Int64(space), Data(key)])
        }
        guard let row else { return nil }
        return try checked(row, space: space, asOf: sequenceNumber).value
    }

    /// The entries of the archived map `space` whose keys lie in `lower...upper` (all of them
    /// when nil), in key order, as a state settled at `asOf` reads them: `history` rows (`asOf`
    /// as ``historyValue(space:key:asOf:)``), or, for a book of the store (``StoreBook``), its
    /// records from its table as of the checkpoint. The rows as stored: ``historyRows(space:after:limit:)``.
    package func historyEntries(
        space: UInt8, from lower: [UInt8]?, through upper: [UInt8]?, asOf sequenceNumber: UInt64 = .max
    ) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        if let book = StoreBook(space: space) { return try bookRecords(book, from: lower, through: upper, asOf: sequenceNumber) }
        guard let lower, let upper else { return try historyEntries(space: space, where: "", [], limit: nil, asOf: sequenceNumber) }
        return try historyEntries(space: space, where: " AND key BETWEEN ? AND ?", [Data(lower), Data(upper)], limit: nil, asOf: sequenceNumber)
    }

    /// Up to `limit` rows of the `history` table in `space` whose keys come after `key` (from the
    /// first when nil), in key order, as stored (for a book of the store: the records commits
    /// kept as of the checkpoint): a space read page by page, in bounded memory.
    package func historyRows(space: UInt8, after key: [UInt8]?, limit: Int) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        try historyEntries(space: space, where: key == nil ? "" : " AND key > ?", key.map { [Data($0)] } ?? [], limit: limit, asOf: .max)
    }

    private func historyEntries(
        space: UInt8, where condition: String, _ arguments: StatementArguments, limit: Int?, asOf sequenceNumber: UInt64
    ) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        let rows = try database.readOneStatement { database in
            var sql = "SELECT key, value, version FROM history WHERE space = ?" + condition + " ORDER BY key"
            if let limit { sql += " LIMIT \(limit)" }
            return try Row.fetchAll(database, sql: sql, arguments: [Int64(space)] + arguments)
        }
        var entries: [(key: [UInt8], value: [UInt8])] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            let key = try StoreRowReader(path: path, table: "history").column(row, "key", as: Data.self)
            entries.append(([UInt8](key), try checked(row, space: space, asOf: sequenceNumber).value))
        }
        return entries
    }

    /// The record of `key` (an id's archive bytes) in `book` as a state settled at the
    /// checkpoint `sequenceNumber` reads it: its rows when their last change is not after it;
    /// else the record the first later commit kept in `history` (the book's space); absent when
    /// it was recorded after it.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for a key that is no id, rows the
    ///   model refuses, or a row changed after `sequenceNumber` without its record kept (files of
    ///   different moments).
    func bookRecord(_ book: StoreBook, key: [UInt8], asOf sequenceNumber: UInt64) throws(StoreError) -> [UInt8]? {
        let id = try book.checkedKey(key, path: path)
        // Most reads are of a new id (G5: is it taken?): one statement without a transaction
        // answers those. A book's row is never removed (a record is never removed from its
        // book: deleted means `is_live` = 0), so one found is read whole in one.
        let found = try database.readOneStatement { database in
            try Bool.fetchOne(database.cachedStatement(sql: "SELECT 1 FROM \(book.table) WHERE \(book.keyColumn) = ?"), arguments: [id])
        }
        guard found != nil else { return nil }
        return try database.read { database in
            try Self.bookRecord(book, id, key: key, asOf: sequenceNumber, in: database, path: self.path, strict: true)
        }
    }

    /// - Parameter strict: a row changed after `sequenceNumber` with no record kept as of it is
    ///   an error; else it is passed over: a range read for a state settled against an older
    ///   checkpoint than the store's newest (``rangeIsStrict(asOf:in:path:)``), which holds such a key
    ///   in memory.
    private static func bookRecord(
        _ book: StoreBook, _ id: Data, key: [UInt8], asOf sequenceNumber: UInt64, in database: Database, path: String, strict: Bool
    ) throws -> [UInt8]? {
        guard let record = try book.record(key: id, in: database, path: path) else { return nil }
        if record.lastChanged <= sequenceNumber { return record.value }
        let kept = try Row.fetchOne(
            database.cachedStatement(sql: "SELECT value, version FROM history WHERE space = ? AND key = ?"),
            arguments: [Int64(book.space.rawValue), Data(key)])
        if let kept {
            let reader = StoreRowReader(path: path, table: "history")
            let version = try reader.sequenceNumber(kept, "version")
            guard version == sequenceNumber else {
                if !strict { return nil }
                throw StoreError.invalidRow(path: path, table: "history", reason: "a record of \(book.table) kept as of \(version), read as of \(sequenceNumber) (files of different moments)")
            }
            return [UInt8](try reader.column(kept, "value", as: Data.self))
        }
        guard record.recorded > sequenceNumber || !strict else {
            throw StoreError.invalidRow(
                path: path, table: book.table,
                reason: "a row changed at \(record.lastChanged), after the checkpoint at \(sequenceNumber), without its record as of it (files of different moments)")
        }
        return nil
    }

    /// Every record of `book` with a key in `lower...upper` (all when nil), in key order, as of
    /// `sequenceNumber` (``bookRecord(_:key:asOf:)``).
    private func bookRecords(_ book: StoreBook, from lower: [UInt8]?, through upper: [UInt8]?, asOf sequenceNumber: UInt64) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        // A record's key is its id's 16 bytes, as the table keeps it.
        guard let lower, let upper else { return try bookRecords(book, where: "1", [], asOf: sequenceNumber) }
        return try bookRecords(book, where: "\(book.keyColumn) BETWEEN ? AND ?", [Data(lower), Data(upper)], asOf: sequenceNumber)
            .filter { !$0.key.lexicographicallyPrecedes(lower) && !upper.lexicographicallyPrecedes($0.key) }
    }

    /// Whether a range read as of `sequenceNumber` finds every row changed since with its
    /// record kept: it is the store's newest checkpoint (a state not yet settled against a
    /// newer one reads such rows from memory instead, so they are passed over), and its kept
    /// records are complete (``keptRecordsComplete()``: after a rebuild that copied the
    /// checkpoint, the running states hold every row changed since in memory).
    private static func rangeIsStrict(asOf sequenceNumber: UInt64, in database: Database, path: String) throws -> Bool {
        guard let row = try Row.fetchOne(database, sql: "SELECT version, complete FROM history_version WHERE id = 1") else { return true }
        let reader = StoreRowReader(path: path, table: "history_version")
        return try reader.sequenceNumber(row, "version") <= sequenceNumber && reader.column(row, "complete", as: Bool.self)
    }

    /// Whether every row changed since the checkpoint has its record kept as of it: false when
    /// the checkpoint was copied into a store rebuilt from the read models (newer rows, no kept
    /// records for the changes between the old store's last commit and the rebuild), until the
    /// next checkpoint. An open does not restore such a checkpoint (it replays), since its tail
    /// would read those rows as of it.
    package func keptRecordsComplete() throws(StoreError) -> Bool {
        let complete = try database.read { database in try Bool.fetchOne(database, sql: "SELECT complete FROM history_version WHERE id = 1") }
        return complete ?? true
    }

    /// The transaction book's records that `filter` selects as of `sequenceNumber`, found with
    /// the table's index on the column, and every record commits kept as of it (their rows may
    /// have left the range since): a superset, which the caller filters
    /// (`ArchivedMap.records(matching:where:)`). O(the range and the kept records).
    package func transactionRecords(matching filter: BookFilter, asOf sequenceNumber: UInt64) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        switch filter {
        case .category(let category):
            try bookRecords(.transactions, where: "category_id = ?", [category.storeValue], asOf: sequenceNumber)
        case .dated(let range):
            try bookRecords(
                .transactions, where: "date BETWEEN ? AND ?", [StoreRowWriter.day(range.lowerBound), StoreRowWriter.day(range.upperBound)], asOf: sequenceNumber)
        case .payee(let key):
            try bookRecords(.transactions, where: "payee_key = ?", [key], asOf: sequenceNumber)
        }
    }

    /// The records of the rows of `book`'s table `condition` selects, as of `sequenceNumber`,
    /// and every record commits kept as of it (their rows may have left the selection since),
    /// in key order: one read transaction.
    private func bookRecords(_ book: StoreBook, where condition: String, _ arguments: StatementArguments, asOf sequenceNumber: UInt64) throws(StoreError) -> [(key: [UInt8], value: [UInt8])] {
        try database.read { database in
            var entries: [(key: [UInt8], value: [UInt8])] = []
            var found: Set<[UInt8]> = []
            let strict = try Self.rangeIsStrict(asOf: sequenceNumber, in: database, path: self.path)
            for id in try Data.fetchAll(database, sql: "SELECT \(book.keyColumn) FROM \(book.table) WHERE \(condition)", arguments: arguments) {
                let key = [UInt8](try book.checkedKey(id, path: self.path))
                guard let record = try Self.bookRecord(book, id, key: key, asOf: sequenceNumber, in: database, path: self.path, strict: strict) else { continue }
                entries.append((key, record))
                found.insert(key)
            }
            let kept = try Row.fetchAll(
                database, sql: "SELECT key, value FROM history WHERE space = ? AND version = ?",
                arguments: [Int64(book.space.rawValue), Int64(bitPattern: sequenceNumber)])
            let reader = StoreRowReader(path: self.path, table: "history")
            for row in kept {
                let key = [UInt8](try reader.column(row, "key", as: Data.self))
                if found.insert(key).inserted { entries.append((key, [UInt8](try reader.column(row, "value", as: Data.self)))) }
            }
            return entries.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        }
    }

    /// A history row's value, when the checkpoint that wrote it is not after `sequenceNumber`.
    private func checked(_ row: Row, space: UInt8, asOf sequenceNumber: UInt64) throws(StoreError) -> (value: [UInt8], version: UInt64) {
        let reader = StoreRowReader(path: path, table: "history")
        let version = try reader.sequenceNumber(row, "version")
        guard version <= sequenceNumber else {
            throw .invalidRow(
                path: path, table: "history",
                reason: "its history holds rows written after its sequence number \(sequenceNumber) (a row of space \(space) written at \(version): files of different moments)")
        }
        return ([UInt8](try reader.column(row, "value", as: Data.self)), version)
    }

    /// Copies `other`'s checkpoint and history into this store, page by page (a store rebuilt
    /// while the engine's states read their history from the one it replaces). The checkpoint's
    /// state is read first: a checkpoint written into `other` meanwhile changes only rows of
    /// keys changed after it, which a state restored from the one copied replays.
    package func copyCheckpoint(from other: LedgerStore) throws(StoreError) {
        let pageRows = 4_096
        let target = database
        // One read snapshot of `other`: a checkpoint written into it meanwhile is either all
        // in the copy or not at all.
        try other.database.read { source in
            let state = try Data.fetchOne(source, sql: "SELECT state FROM checkpoint WHERE id = 1")
            let version = try Int64.fetchOne(source, sql: "SELECT version FROM history_version WHERE id = 1")
            try target.write { database in
                // The rows of this store are newer than the copied history: the records of those
                // changed since it are not all kept (complete = 0) until a checkpoint is written.
                if let version {
                    try database.execute(sql: "INSERT OR REPLACE INTO history_version (id, version, complete) VALUES (1, ?, 0)", arguments: [version])
                }
                let insert = try database.cachedStatement(sql: "INSERT OR REPLACE INTO history (space, key, value, version) VALUES (?, ?, ?, ?)")
                var after: (space: Int64, key: Data) = (-1, Data())
                while true {
                    let page = try Row.fetchAll(source, sql: """
                        SELECT space, key, value, version FROM history WHERE (space, key) > (?, ?) ORDER BY space, key LIMIT \(pageRows)
                        """, arguments: [after.space, after.key])
                    for row in page { try insert.execute(arguments: StatementArguments((0..<4).map { row[$0] as DatabaseValue })) }
                    guard page.count == pageRows, let last = page.last else { break }
                    after = (try last.decode(Int64.self, atIndex: 0), try last.decode(Data.self, atIndex: 1))
                }
                if let state {
                    try database.execute(sql: "INSERT OR REPLACE INTO checkpoint (id, state) VALUES (1, ?)", arguments: [state])
                }
            }
        }
    }
}

/// Where the engine's archived maps read the entries they do not hold: the `history` table of
/// the ledger's store, whichever file that is now (a rebuild replaces it; ``use(_:)``). Shared
/// by every state attached to it.
///
/// A read that fails (I/O, a damaged page, no store) is remembered in ``failure`` and reads as
/// absent; the engine checks ``failure`` before it writes anything validated with such a read.
package final class StoreHistory: ArchiveSource {
    private let state: Mutex<(store: LedgerStore?, failure: StoreError?, asOf: UInt64)>

    /// - Parameter sequenceNumber: the checkpoint the states reading through it settled
    ///   against (0: none yet); rows later checkpoints wrote are refused until ``advance(to:)``.
    package init(store: LedgerStore?, asOf sequenceNumber: UInt64 = 0) {
        state = Mutex((store, nil, sequenceNumber))
    }

    /// The states reading through it settled against the checkpoint at `sequenceNumber` (or a
    /// store whose rows are all as of it or earlier replaced the one they read).
    package func advance(to sequenceNumber: UInt64) { state.withLock { $0.asOf = max($0.asOf, sequenceNumber) } }

    /// Reads from `store` from now on (nil: none, every read fails). Waits for a read in
    /// progress, so the store replaced can be closed afterwards.
    package func use(_ store: LedgerStore?) { state.withLock { $0.store = store } }

    /// The first read that failed, if any.
    package var failure: StoreError? { state.withLock { $0.failure } }

    /// Records a failure (also one found while decoding what was read).
    package func fail(_ error: StoreError) {
        state.withLock { if $0.failure == nil { $0.failure = error } }
    }

    /// The transaction book's records `filter` selects, as of the states' checkpoint
    /// (``LedgerStore/transactionRecords(matching:asOf:)``).
    package func bookEntries(matching filter: BookFilter) -> [(key: [UInt8], value: [UInt8])] {
        reading([]) { store, asOf throws(StoreError) in try store.transactionRecords(matching: filter, asOf: asOf) }
    }

    /// Records bytes read that could not be decoded.
    package func failDecoding(_ reason: String) {
        fail(.invalidRow(path: state.withLock { $0.store?.path } ?? "the store", table: "history", reason: reason))
    }

    /// The value of `key` in `space`, or nil (absent, or the read failed: see ``failure``).
    package func value(space: UInt8, key: [UInt8]) -> [UInt8]? {
        reading(nil) { store, asOf throws(StoreError) in try store.historyValue(space: space, key: key, asOf: asOf) }
    }

    /// The entries of `space` with keys in `lower...upper` (every entry when nil), in key order.
    /// A range may hold rows a checkpoint not settled yet wrote: they are of keys the states
    /// hold in memory, which replace them (`ArchivedMap.entries`), so they are not refused here.
    package func entries(space: UInt8, from lower: [UInt8]? = nil, through upper: [UInt8]? = nil) -> [(key: [UInt8], value: [UInt8])] {
        reading([]) { store, asOf throws(StoreError) in
            // A book's rows change with every commit: read as of the states' checkpoint.
            try store.historyEntries(space: space, from: lower, through: upper, asOf: StoreBook(space: space) != nil ? asOf : .max)
        }
    }

    /// Copies the checkpoint and history of the store read now into `built` (its replacement).
    package func copyCheckpoint(into built: LedgerStore) throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            guard let store = state.store else {
                throw StoreError.database(path: built.path, message: "the store it replaces is closed: its checkpoint cannot be copied")
            }
            try built.copyCheckpoint(from: store)
        }
    }

    private func reading<T>(_ absent: T, _ body: (LedgerStore, UInt64) throws(StoreError) -> T) -> T {
        let outcome: Result<T, StoreError>? = state.withLock { state in
            guard let store = state.store else {
                if state.failure == nil { state.failure = .database(path: "the read-side store", message: "closed or unavailable: the history it holds cannot be read") }
                return nil
            }
            do throws(StoreError) {
                return .success(try body(store, state.asOf))
            } catch {
                if state.failure == nil { state.failure = error }
                return .failure(error)
            }
        }
        guard case .success(let value) = outcome else { return absent }
        return value
    }
}
