import Crypto
import Foundation
import GRDB
import TallyModel
import TallyProjections
import TallySQLiteEncryption

/// The read side on disk: an SQLite database (GRDB, WAL) in the ledger folder holding what the
/// read models hold, so that a screen reads balances and pages of transactions without folding
/// the journal (Docs/Engine.md "Read side").
///
/// The journal stays the only truth. Every commit writes the changed rows and the coverage
/// (last sequence number and chain value) in one SQLite transaction, after the journal made the
/// events durable, so the store never claims an event the journal could lose. Because it can be
/// rebuilt from the journal, commits are not synced (WAL with `synchronous = NORMAL`: a power
/// loss may drop the latest commits but never leaves a mix of two; open catches it up).
/// `secure_delete` overwrites what a forgetting replaces (P3).
///
/// Every page is sealed with AES-GCM by `TallySQLiteEncryption` (the page number as associated
/// data): with the ledger's key, so an encrypted ledger's store is unreadable without it; without
/// one, with ``integrityKey``, so that a damaged page is detected and the store rebuilt, never
/// served (that key is public: it guards against damage, not against a reader).
public final class LedgerStore: Sendable {
    /// The schema this version writes (`PRAGMA user_version`).
    static let schemaVersion = 7

    /// The database file.
    public let path: String
    private let database: SealedDatabase

    /// The page key of a store whose ledger is not encrypted: authentication against damage
    /// only (a public constant).
    public static var integrityKey: SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Array("tally read-side store: page integrity, not secrecy".utf8)))
    }

    /// The page key of an encrypted ledger's store, derived from the ledger's key (HKDF-SHA256),
    /// so the store never holds the journal key itself.
    public static func pageKey(derivedFrom ledgerKey: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: ledgerKey), info: Array("tally read-side store v1".utf8), outputByteCount: 32)
    }

    /// Opens the store at `path`, creating it with the current schema when the file is new.
    /// - Parameter key: the page key (``pageKey(derivedFrom:)`` or ``integrityKey``).
    /// - Throws: ``StoreError/database(path:message:)`` when SQLite refuses the file (a wrong
    ///   key or a damaged page included), ``StoreError/unsupportedSchema(path:version:)`` for a
    ///   store of another schema.
    public init(path: String, key: SymmetricKey = LedgerStore.integrityKey) throws(StoreError) {
        self.path = path
        database = try SealedDatabase(
            path: path, key: key, pragmas: "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON", schemaVersion: Self.schemaVersion,
            create: { database in try StoreSchema.create(in: database) })
    }

    /// The database file at `path` and the files SQLite keeps beside it (WAL, shared memory).
    public static func files(at path: String) -> [String] { SealedDatabase.files(at: path) }

    /// Removes the store's files; missing files are fine.
    public static func remove(at path: String) { SealedDatabase.remove(at: path) }

    /// The journal position the rows reflect; `nil` for a store never filled.
    ///
    /// The live tables (balances, totals, debts, names) are checked against the digest written
    /// with the coverage in the same transaction, so rows older or newer than the coverage (an
    /// old page image put back, a power loss mixing commits) are refused, never served.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` when the digest does not match.
    public func coverage() throws(StoreError) -> StoreCoverage? {
        try read { database in
            guard let row = try Row.fetchOne(database, sql: "SELECT sequence, chain, live_digest FROM coverage WHERE id = 1") else { return nil }
            let reader = StoreRowReader(path: path, table: "coverage")
            let chain = [UInt8](try reader.column(row, "chain", as: Data.self))
            guard chain.count == 32 else { throw StoreError.invalidRow(path: path, table: "coverage", reason: "chain of \(chain.count) bytes") }
            guard try reader.column(row, "live_digest", as: Data.self) == (try Self.liveDigest(database)) else {
                throw StoreError.invalidRow(path: path, table: "coverage", reason: "the live tables do not match the digest written with the coverage")
            }
            return StoreCoverage(sequenceNumber: try reader.sequenceNumber(row, "sequence"), chainValue: chain)
        }
    }

    /// SHA-256 over every row of the live tables, in primary-key order, as SQLite returns them.
    static func liveDigest(_ database: Database) throws -> Data {
        var hasher = SHA256()
        for (table, order) in StoreSchema.liveTableOrder {
            hasher.update(data: Array(table.utf8))
            for row in try Row.fetchAll(database, sql: "SELECT * FROM \(table) ORDER BY \(order)") {
                for (column, value) in row {
                    hasher.update(data: Array("\u{1}\(column)\u{2}\(value)".utf8))
                }
                hasher.update(data: [0])
            }
        }
        return Data(hasher.finalize())
    }

    /// Writes the rows `changes` touched, the small tables whole, and the new coverage, in one
    /// transaction. After a forgetting the WAL is checkpointed and truncated, so no page with the
    /// old texts survives in it.
    public func commit(_ changes: StoreChanges, from snapshot: StoreSnapshot, coverage: StoreCoverage) throws(StoreError) {
        try write { database in
            let writer = StoreRowWriter(database: database, snapshot: snapshot)
            for id in changes.transactionIDs { try writer.upsertTransaction(id) }
            for id in changes.transferIDs { try writer.upsertTransfer(id) }
            try writer.rewriteNotes(of: changes.forgottenPeople)
            try writer.replaceLiveTables()
            try writer.setCoverage(coverage)
        }
        if changes.forgetsPeople { try truncateWriteAheadLog() }
    }

    /// Replaces every row with the read models' (a rebuild), in one transaction.
    /// - Parameter progress: called with (rows written, rows in all) now and then.
    public func replaceAll(
        from snapshot: StoreSnapshot, coverage: StoreCoverage, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(StoreError) {
        try write { database in
            for table in StoreSchema.historyTables { try database.execute(sql: "DELETE FROM \(table)") }
            let writer = StoreRowWriter(database: database, snapshot: snapshot)
            let wallets = snapshot.readModels.wallets
            let total = wallets.transactionIDs.count + wallets.transferIDs.count
            var written = 0
            for id in wallets.transactionIDs {
                try writer.upsertTransaction(id, fresh: true)
                written += 1
                if written % 50_000 == 0 { progress(written, total) }
            }
            for id in wallets.transferIDs { try writer.upsertTransfer(id) }
            try writer.replaceLiveTables()
            try writer.setCoverage(coverage)
            // Merged into one segment: what the deleted rows held leaves the index too (P3).
            try writer.mergeSearchIndex()
            progress(total, total)
        }
        try truncateWriteAheadLog()
    }

    /// Every wallet with its balance, sorted by name then id (as ``WalletProjection/balances(asOf:visibleTo:)``).
    public func walletBalances() throws(StoreError) -> [WalletBalance] {
        try read { database in
            try Row.fetchAll(database, sql: "SELECT * FROM wallet_balances ORDER BY name, wallet_id").map { row in
                try StoreRowReader(path: path, table: "wallet_balances").walletBalance(row)
            }
        }
    }

    /// The totals of the wallets that count, with the latest rates (as ``WalletProjection/totals(asOf:)``).
    public func totals() throws(StoreError) -> WalletTotals {
        try read { database in
            try StoreRowReader(path: path, table: "totals").totals(try Row.fetchAll(database, sql: "SELECT * FROM totals ORDER BY position"))
        }
    }

    /// The category names, by id (deleted categories included).
    public func categoryNames() throws(StoreError) -> [CategoryID: String] { try names(table: "categories", id: "category_id") }

    /// The display names of the people, by id (redacted for people forgotten, P3).
    public func personNames() throws(StoreError) -> [PersonID: String] { try names(table: "people", id: "person_id") }

    /// The `name` column of a live table by its id column.
    private func names<Kind>(table: String, id: String) throws(StoreError) -> [Identifier<Kind>: String] {
        try read { database in
            var names: [Identifier<Kind>: String] = [:]
            let reader = StoreRowReader(path: path, table: table)
            for row in try Row.fetchAll(database, sql: "SELECT \(id), name FROM \(table)") {
                names[try reader.id(row, id)] = try reader.column(row, "name", as: String.self)
            }
            return names
        }
    }

    /// One page of a wallet's transactions, newest business date first (then newest recorded),
    /// deleted ones included only when asked: keyset pagination, so a page costs the same at
    /// any depth. Pass the last entry of a page as `after` to get the next one.
    public func transactions(
        in walletID: WalletID, after cursor: StoredTransaction? = nil, limit: Int, includingDeleted: Bool = false
    ) throws(StoreError) -> [StoredTransaction] {
        guard limit > 0 else { return [] }
        var query = TransactionQuery()
        query.walletIDs = [walletID]
        query.deleted = includingDeleted ? .included : .excluded
        query.limit = min(limit, TransactionQuery.limitMax)
        query.after = cursor.map(query.order.cursor(after:))
        return try transactions(query).rows.map(\.transaction)
    }

    /// Row counts per table (for `tally stats` and tests).
    public func rowCounts() throws(StoreError) -> [String: Int] {
        try read { database in
            var counts: [String: Int] = [:]
            for table in StoreSchema.allTables {
                counts[table] = try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            return counts
        }
    }

    /// Closes the database; later calls throw.
    public func close() { database.close() }

    private func truncateWriteAheadLog() throws(StoreError) { try database.truncateWriteAheadLog() }

    private func write(_ body: (Database) throws -> Void) throws(StoreError) { try database.write(body) }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T { try database.read(body) }
}

/// What a commit or a rebuild writes from: the read models after the events, and the people's
/// display names as the engine holds them (redacted for forgotten people).
public struct StoreSnapshot: Sendable {
    /// The read models.
    public var readModels: Projections
    /// Display names by person id.
    public var personNames: [PersonID: String]
    /// Category names by id, deleted categories included (their transactions keep them).
    public var categoryNames: [CategoryID: String]

    /// A snapshot.
    public init(readModels: Projections, personNames: [PersonID: String], categoryNames: [CategoryID: String] = [:]) {
        self.readModels = readModels
        self.personNames = personNames
        self.categoryNames = categoryNames
    }
}
