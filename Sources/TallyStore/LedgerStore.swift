import Crypto
import Foundation
import Synchronization
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
    /// The schema this version writes (`PRAGMA user_version`). 9: the live digest hashes each
    /// value's stored bytes (a store of 8 is rebuilt by the writer's open). 10: a category
    /// deleted with a target has moved its transactions' rows and month totals there (C3); a
    /// store of 9 may list them under the deleted category, so the writer's open rebuilds it.
    /// 11: the checkpoint's tables (`history`, `checkpoint`): the checkpoint archive and the
    /// checkpoint files became the store's (a store of 10 is rebuilt by the writer's open).
    /// 12: ids are their 16 bytes, not their text (a store of 11 is rebuilt the same way, its
    /// checkpoint with it). 13: the touches of one key that a checkpoint writes are one
    /// `history` row (the engine's `TouchRow`), not one row per touch. 14: the transaction
    /// book is the `transactions` table (with each record's last change and split rule, tags
    /// by position), not `history` rows; `history_version`; the epoch of the main file and its
    /// WAL (`store_epoch`, `coverage.epoch`). 15: the transfer book is the `transfers` table
    /// (each record's last change and note), not `history` rows. 16: `month_totals` keeps one
    /// cell per viewer (G7: the household's, and each person's who sees the transactions). 17:
    /// `wallet_balances.valuation` (W5: any wallet may be observed). 18: a transaction's row
    /// keeps when it was recorded, last edited and deleted (`recorded_at`, `edited_at`,
    /// `deleted_at`, US-018, US-020) and `transactions_by_deletion` orders the deleted ones.
    /// 19: `settlements` (S6: a paged list of them, Flow US-040, Swiff 1.3.1). 20: a
    /// transaction's row keeps the amount as charged in another currency (`original_amount`,
    /// `original_currency`, T7). 21: a transaction's row keeps its payee and subtitle with
    /// their owners and the payee key (`payee_key`, indexed by `transactions_by_payee`: Swiff
    /// 1.1.2, Flow US-072); the search index matches them too. 22:
    /// `wallet_balances.connection_status` (Tim Step 2.2: a bank link that needs
    /// re-authentication shows in the balances list). 23: a personal text read sealed (its
    /// owner's key not held here, as on a sync server) keeps its sealed bytes: `note_sealed`
    /// for a transaction's note, a blob in the text column for the others
    /// (``PersonalText/storeValue``), so the store never turns a sealed text into a redacted one.
    static let schemaVersion = 23

    /// The database file.
    public let path: String
    let database: SealedDatabase
    /// Whether the WAL holds frames of a renewed epoch that were not copied into the main file
    /// (a copy a reader kept busy, or a WAL left by another session): until a copy succeeds, an
    /// older main file under this WAL would read the new epoch, so the next commit tries again.
    private let epochCopyPending: Mutex<Bool>
    /// Between ``beginBulkLoad()`` and ``endBulkLoad()``: a fold writes the store and its
    /// checkpoints window by window and reads nothing between a commit and the checkpoint that
    /// follows it, so commits keep no records as of the last checkpoint.
    private let bulkLoading: Mutex<Bool>
    /// What a synced device shows on top of the rows, by the coverage it was made on
    /// (``show(_:)``, `LedgerStore+Pending.swift`).
    let overlays = Mutex<[StoreOverlay]>([])

    /// The page key of a store whose ledger is not encrypted: authentication against damage
    /// only (a public constant).
    package static var integrityKey: SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Array("tally read-side store: page integrity, not secrecy".utf8)))
    }

    /// The page key of an encrypted ledger's store, derived from the ledger's key (HKDF-SHA256),
    /// so the store never holds the journal key itself.
    package static func pageKey(derivedFrom ledgerKey: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: ledgerKey), info: Array("tally read-side store v1".utf8), outputByteCount: 32)
    }

    /// Opens the store at `path`, creating it with the current schema when the file is new.
    /// - Parameter key: the page key (``pageKey(derivedFrom:)`` or ``integrityKey``).
    /// - Throws: ``StoreError/database(path:message:)`` when SQLite refuses the file (a wrong
    ///   key or a damaged page included), ``StoreError/unsupportedSchema(path:version:)`` for a
    ///   store of another schema.
    ///   ``StoreError/damaged(path:message:)`` for a main file and a WAL of different moments
    ///   (``renewEpoch()``).
    package init(path: String, key: SymmetricKey = LedgerStore.integrityKey) throws(StoreError) {
        self.path = path
        // The WAL is copied into the main file only by this type (truncateWriteAheadLog,
        // copyWriteAheadLogWhenLarge, close), which renews the epoch first.
        database = try SealedDatabase(
            path: path, key: key, pragmas: "PRAGMA synchronous = \(Self.synchronous); PRAGMA secure_delete = ON; PRAGMA wal_autocheckpoint = 0",
            schema: "read-side store", schemaVersion: Self.schemaVersion,
            create: { database in try StoreSchema.create(in: database) })
        epochCopyPending = Mutex(Self.writeAheadLogBytes(at: path) > 0)
        bulkLoading = Mutex(false)
        let sameMoment = try database.read { database in
            try Bool.fetchOne(database, sql: "SELECT c.epoch = e.epoch FROM coverage c, store_epoch e WHERE c.id = 1 AND e.id = 1")
        }
        if sameMoment == false {
            database.close()
            throw .damaged(path: path, message: "its main file and its WAL are of different moments (the last commit saw another epoch than the file holds)")
        }
    }

    /// How commits are synced (WAL with `NORMAL`: see the type's documentation).
    private static let synchronous = "NORMAL"

    /// Readies this new, empty store to be filled in bulk (what a rebuild and an audit write):
    /// its commits are not synced until ``endBulkLoad()`` (a crash leaves a scratch file that
    /// nothing opens as the store: the next rebuild or writer's open removes a rebuild's, the next
    /// audit an audit's). A rebuild keeps the history tables' indexes, filled as rows arrive:
    /// made after the load, their sorts would hold every key in memory (`temp_store = MEMORY`:
    /// a temporary file would bypass the page encryption).
    /// - Throws: ``StoreError/database(path:message:)`` when the store already covers events.
    package func beginBulkLoad() throws(StoreError) {
        try requireEmpty()
        try database.run { database in try database.execute(sql: "PRAGMA synchronous = OFF") }
        bulkLoading.withLock { $0 = true }
    }

    /// Drops the history tables' secondary indexes (`StoreSchema.historyIndexes`) of this new,
    /// empty store, but those the engine's fold reads through (`StoreSchema.bookIndexes`): for
    /// one that is digested and removed, never queried (the audit's scratch store). The open
    /// refuses such a file, so it can never be served.
    /// - Throws: ``StoreError/database(path:message:)`` when the store already covers events.
    package func dropHistoryIndexes() throws(StoreError) {
        try requireEmpty()
        try database.run { database in try StoreSchema.dropHistoryIndexes(in: database) }
    }

    private func requireEmpty() throws(StoreError) {
        guard try coverage() == nil else {
            throw .database(path: path, message: "a bulk load fills a new store; this one already covers events")
        }
    }

    /// Ends ``beginBulkLoad()``: commits are synced again, so the checkpoint of the WAL that
    /// ends a rebuild syncs the file before it is renamed into place.
    package func endBulkLoad() throws(StoreError) {
        try database.run { database in try database.execute(sql: "PRAGMA synchronous = \(Self.synchronous)") }
        bulkLoading.withLock { $0 = false }
    }

    /// The database file at `path` and the files SQLite keeps beside it (WAL, shared memory).
    package static func files(at path: String) -> [String] { SealedDatabase.files(at: path) }

    /// Removes the store's files; missing files are fine.
    package static func remove(at path: String) { SealedDatabase.remove(at: path) }

    /// The journal position the rows reflect; `nil` for a store never filled.
    ///
    /// The live tables (balances, totals, debts, names) are checked against the digest written
    /// with the coverage in the same transaction (``LiveDigest``: O(live rows), here and never
    /// per commit), so rows older or newer than the coverage (an old page image put back, a
    /// power loss mixing commits) are refused, never served.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` when the digest does not match.
    package func coverage() throws(StoreError) -> StoreCoverage? {
        try database.read { database in try coverage(in: database) }
    }

    /// ``coverage()`` inside a read.
    /// - Parameter liveDigest: the live tables' digest when the caller computed it already.
    private func coverage(in database: Database, liveDigest: LiveDigest? = nil) throws -> StoreCoverage? {
        guard let row = try Row.fetchOne(database, sql: "SELECT sequence, chain, live_digest FROM coverage WHERE id = 1") else { return nil }
        let reader = StoreRowReader(path: path, table: "coverage")
        let chain = [UInt8](try reader.column(row, "chain", as: Data.self))
        guard chain.count == 32 else { throw StoreError.invalidRow(path: path, table: "coverage", reason: "chain of \(chain.count) bytes") }
        guard try reader.column(row, "live_digest", as: Data.self) == (try liveDigest ?? LiveDigest.ofLiveTables(database)).bytes else {
            throw StoreError.invalidRow(path: path, table: "coverage", reason: "the live tables do not match the digest written with the coverage")
        }
        return StoreCoverage(sequenceNumber: try reader.sequenceNumber(row, "sequence"), chainValue: chain)
    }

    /// Writes the rows `changes` touched (the small live tables compared and written where they
    /// differ) and the new coverage, in one transaction: O(what changed). After a forgetting
    /// the WAL is checkpointed and truncated, so no page with the old texts survives in it.
    /// - Returns: the tables the commit modified (``StoreReadRegion/isChanged(by:)``).
    @discardableResult
    package func commit(_ changes: StoreChanges, from snapshot: StoreSnapshot, coverage: StoreCoverage) throws(StoreError) -> Set<String> {
        try commit(changes, source: snapshot, coverage: coverage)
    }

    /// ``commit(_:from:coverage:)`` from rows gathered out of a snapshot (``StoreRows``), on
    /// any thread: what `changes` names is in `rows`. A forgetting's commit needs the snapshot.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` for the commit of a forgetting.
    @discardableResult
    package func commit(_ changes: StoreChanges, rows: StoreRows, coverage: StoreCoverage) throws(StoreError) -> Set<String> {
        guard !changes.forgetsPeople else {
            throw .invalidRow(path: path, table: "transactions", reason: "a forgetting is committed from the read models, not from gathered rows")
        }
        return try commit(changes, source: rows, coverage: coverage)
    }

    private func commit(_ changes: StoreChanges, source: any StoreRowSource, coverage: StoreCoverage) throws(StoreError) -> Set<String> {
        var modified: Set<String> = []
        try write { database in
            let writer = try writeRows(changes, from: source, in: database, keepsRecords: !bulkLoading.withLock { $0 })
            try writer.setCoverage(coverage)
            modified = writer.modifiedTables
        }
        dropOverlays(before: coverage.sequenceNumber)
        if changes.forgetsPeople {
            try truncateWriteAheadLog()
        } else {
            copyWriteAheadLogWhenLarge()
        }
        return modified
    }

    /// Writes the rows `changes` touched from `source` inside a transaction of `database` (a
    /// commit's, or a synced device's pending rows that are rolled back, ``StoreOverlay``).
    /// - Returns: the writer, for the coverage and the tables it modified.
    func writeRows(_ changes: StoreChanges, from source: any StoreRowSource, in database: Database, keepsRecords: Bool) throws -> StoreRowWriter {
        let stored = try Data.fetchOne(database, sql: "SELECT live_digest FROM coverage WHERE id = 1").flatMap(LiveDigest.init(bytes:))
        let writer = StoreRowWriter(
            database: database, path: path, source: source, digest: try stored ?? LiveDigest.ofLiveTables(database), keepsRecords: keepsRecords)
        for id in changes.transactionIDs { try writer.upsertTransaction(id) }
        // After the rows: commits queued behind a write are merged, and a transaction changed
        // only by an earlier one comes with that commit's row (its old category); a
        // reassignment then moves it, as it moves the rows written before.
        for reassignment in changes.categoryReassignments { try writer.reassign(reassignment) }
        for id in changes.transferIDs { try writer.upsertTransfer(id) }
        for id in changes.settlementIDs { try writer.upsertSettlement(id) }
        try writer.rewriteNotes(of: changes.forgottenPeople)
        try writer.updateLiveTables(people: changes.personIDs, categories: changes.categoryIDs)
        return writer
    }

    /// Replaces every row with the read models' (a rebuild from the state in memory), in one
    /// transaction. (A rebuild from the journal streams through `commit` window by window.)
    package func replaceAll(from snapshot: StoreSnapshot, coverage: StoreCoverage) throws(StoreError) {
        try write { database in
            for table in StoreSchema.historyTables + StoreSchema.liveTables { try database.execute(sql: "DELETE FROM \(table)") }
            let writer = StoreRowWriter(database: database, path: path, source: snapshot, digest: LiveDigest(), keepsRecords: false)  // every row new
            let wallets = snapshot.readModels.wallets
            for id in wallets.transactionIDs { try writer.upsertTransaction(id) }
            for id in wallets.transferIDs { try writer.upsertTransfer(id) }
            for id in snapshot.readModels.debts.settlementIDs { try writer.upsertSettlement(id) }
            try writer.updateLiveTables(people: nil, categories: nil)
            try writer.setCoverage(coverage)
        }
        dropOverlays(before: coverage.sequenceNumber)
        try mergeSearchIndex()
    }

    /// Merges the search index into one segment (what deleted rows held leaves it too, P3) and
    /// truncates the WAL: the end of a rebuild.
    private func mergeSearchIndex() throws(StoreError) {
        try write { database in try StoreRowWriter.mergeSearchIndex(in: database) }
        try truncateWriteAheadLog()
    }

    /// Builds a new store file with `fill` and swaps it in for the one at `path`, which is
    /// never written: a damaged page in it does not stop a rebuild, and a crash leaves it as it
    /// was. `fill` writes the rows into `path.rebuild` (a new, empty store); the search index is
    /// merged and the WAL checkpointed into it; then `beforeSwap` runs (close every pool of
    /// `path` in this process there, or before), the old file's WAL and shared memory are
    /// removed and the new file is renamed over the old one.
    /// - Returns: the new store, open.
    /// - Throws: what `fill` throws (the new file is removed, the old one left as it was), and
    ///   ``StoreError/database(path:message:)`` when the files cannot be created or swapped.
    package static func rebuild(
        at path: String, key: SymmetricKey, filling fill: (LedgerStore) throws(StoreError) -> Void,
        beforeSwap: () -> Void = {}
    ) throws(StoreError) -> LedgerStore {
        let scratch = scratchPath(for: path)
        remove(at: scratch)
        do {
            let built = try LedgerStore(path: scratch, key: key)
            defer { built.close() }
            try built.beginBulkLoad()
            try fill(built)
            try built.endBulkLoad()
            try built.mergeSearchIndex()
        } catch {
            remove(at: scratch)
            throw error
        }
        beforeSwap()
        for file in files(at: path).dropFirst() where unlink(file) != 0 && errno != ENOENT {
            remove(at: scratch)
            throw .database(path: file, message: "cannot remove it before the rebuilt store replaces it: \(String(cString: strerror(errno)))")
        }
        guard rename(scratch, path) == 0 else {
            let reason = String(cString: strerror(errno))
            remove(at: scratch)
            throw .database(path: path, message: "cannot put the rebuilt store in place: \(reason)")
        }
        remove(at: scratch)  // what SQLite left beside the scratch file
        syncDirectory(of: path)
        return try LedgerStore(path: path, key: key)
    }

    /// Where ``rebuild(at:key:filling:)`` builds the new file.
    package static func scratchPath(for path: String) -> String { path + ".rebuild" }

    /// Makes a rename in the directory of `path` durable (best effort: the store is derived).
    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        guard let handle = FileHandle(forReadingAtPath: directory.isEmpty ? "." : directory) else { return }
        try? handle.synchronize()
        try? handle.close()
    }

    /// Every wallet `viewer` sees with its balance (the household's and their own, G7: another
    /// member's own wallet is left out), sorted by name then id (as
    /// ``WalletProjection/balances(asOf:visibleTo:)``).
    public func walletBalances(visibleTo viewer: Viewer) throws(StoreError) -> [WalletBalance] {
        let (condition, arguments): (String, StatementArguments) = viewer.person.map { ("WHERE owner_id IS NULL OR owner_id = ?", [$0.storeValue]) } ?? ("", [])
        return try read { database in
            try Row.fetchAll(database, sql: "SELECT * FROM wallet_balances \(condition) ORDER BY name, wallet_id", arguments: arguments).map { row in
                try StoreRowReader(path: path, table: "wallet_balances").walletBalance(row)
            }
        }
    }

    /// The household's totals of the wallets that count, with the latest rates (as
    /// ``WalletProjection/totals(asOf:visibleTo:)`` for `Viewer/audit`): what the audit
    /// compares; a member's totals are `Ledger.totals(visibleTo:)`.
    package func totals() throws(StoreError) -> WalletTotals {
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

    /// The coverage and, per table, a digest of every row it holds in any order (the sum of
    /// the rows' hashes, as ``LiveDigest``), and one of the entries of the search index,
    /// read in one snapshot: two stores with the same digests hold the same rows and find
    /// the same transactions. Streamed: O(rows) time, O(1) memory. What `tally audit`
    /// compares with a store rebuilt from the journal.
    package func contentDigests() throws(StoreError) -> (coverage: StoreCoverage?, tables: [String: String]) {
        try database.read { database in
            // One read transaction: a writer committing meanwhile is not seen half-way.
            var digests: [String: String] = [:]
            var live = LiveDigest()
            for table in StoreSchema.allTables {
                let digest = try LiveDigest.of(table, in: database)
                if StoreSchema.liveTables.contains(table) { live.add(digest) }
                digests[table] = digest.hex
            }
            digests[LiveDigest.searchIndexName] = try LiveDigest.ofSearchIndex(in: database)
            return (try coverage(in: database, liveDigest: live), digests)
        }
    }

    /// Row counts per table (for `tally stats` and tests).
    package func rowCounts() throws(StoreError) -> [String: Int] {
        try database.read { database in
            var counts: [String: Int] = [:]
            for table in StoreSchema.allTables {
                counts[table] = try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            return counts
        }
    }

    /// The bytes of the store's pages (page count times page size, WAL not included): O(1).
    public func pageBytes() throws(StoreError) -> Int64 {
        try database.read { database in
            (try Int64.fetchOne(database, sql: "PRAGMA page_count") ?? 0) * (try Int64.fetchOne(database, sql: "PRAGMA page_size") ?? 0)
        }
    }

    /// The bytes each table and index of the store takes on disk (its pages, SQLite's `dbstat`),
    /// largest first, with the unused pages as `(free pages)`: where the store's size comes
    /// from (`tally stats`). One read snapshot; O(pages).
    public func bytesByObject() throws(StoreError) -> [(name: String, bytes: Int64)] {
        try database.read { database in
            var sizes = try Row.fetchAll(database, sql: "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name")
                .map { row -> (name: String, bytes: Int64) in
                    (try row.decode(String.self, forColumn: "name"), try row.decode(Int64.self, forColumn: "bytes"))
                }
            let free = try Int64.fetchOne(database, sql: "PRAGMA freelist_count") ?? 0
            let pageSize = try Int64.fetchOne(database, sql: "PRAGMA page_size") ?? 0
            if free > 0 { sizes.append(("(free pages)", free * pageSize)) }
            return sizes.sorted { ($0.bytes, $1.name) > ($1.bytes, $0.name) }
        }
    }

    /// Closes the database; later calls throw. The writer's close (`checkpointing`) leaves the
    /// WAL empty (one attempt: a reader keeping it busy past the busy timeout leaves it for the
    /// next open).
    package func close(checkpointing: Bool = false) {
        // No copy without a renewed epoch (the next session's first commit copies it then).
        database.close(checkpointing: checkpointing && (try? renewEpoch()) != nil)
    }

    /// Copies the WAL into the main file and empties it, its epoch renewed first.
    func truncateWriteAheadLog() throws(StoreError) {
        try renewEpoch()
        epochCopyPending.withLock { $0 = true }
        try database.truncateWriteAheadLog()
        epochCopyPending.withLock { $0 = false }
    }

    /// A new epoch (`store_epoch`), written with the coverage row that records it, before the
    /// WAL is copied into the main file: every commit after it records the new one, so a WAL
    /// written on this main file and a main file of another moment never pair unnoticed.
    private func renewEpoch() throws(StoreError) {
        try write { database in
            try database.execute(sql: "UPDATE store_epoch SET epoch = randomblob(16) WHERE id = 1")
            try database.execute(sql: "UPDATE coverage SET epoch = (SELECT epoch FROM store_epoch WHERE id = 1) WHERE id = 1")
        }
    }

    /// The WAL size past which a commit copies it into the main file (SQLite's own automatic
    /// copy is off: it would not renew the epoch).
    private static let writeAheadLogBytesMax = 8 << 20

    /// After a commit: copies a WAL grown past ``writeAheadLogBytesMax``, or one holding a renewed
    /// epoch not copied yet (``epochCopyPending``), into the main file (one attempt; a reader
    /// keeping it busy leaves it for the next commit).
    private func copyWriteAheadLogWhenLarge() {
        guard epochCopyPending.withLock({ $0 }) || Self.writeAheadLogBytes(at: path) > Self.writeAheadLogBytesMax else { return }
        do throws(StoreError) {
            try renewEpoch()
            epochCopyPending.withLock { $0 = true }
            let busy = try database.checkpointWriteAheadLog()
            epochCopyPending.withLock { $0 = busy }
        } catch {
            return
        }
    }

    /// The size of the WAL beside the store at `path` (0 when there is none).
    private static func writeAheadLogBytes(at path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    }

    private func write(_ body: (Database) throws -> Void) throws(StoreError) { try database.write(body) }

    /// Runs `body` on a reader connection; inside ``StoreReadRegion/recording(_:)`` the tables
    /// it reads are recorded. With a synced device's pending rows to show (``show(_:)``), on
    /// the rows with them written, rolled back afterwards (``readShowingPending(_:)``).
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        let recorder = StoreReadRecorder.current
        func recorded(_ database: Database) throws -> T {
            if let recorder { try recorder.record(database, body) } else { try body(database) }
        }
        return showsPending ? try readShowingPending(recorded) : try database.read(recorded)
    }
}

/// What a commit or a rebuild writes from: the read models after the events, and the names of
/// people and categories as the engine holds them (redacted for forgotten people), looked up
/// by id so that a commit reads only the names it writes.
package struct StoreSnapshot: Sendable {
    /// The read models.
    package var readModels: Projections
    /// A person's display name; nil for an id the ledger does not know.
    package var personName: @Sendable (PersonID) -> String?
    /// A category's name, deleted categories included (their transactions keep them); nil for
    /// an id the ledger does not know.
    package var categoryName: @Sendable (CategoryID) -> String?
    /// Every person's id (a rebuild writes them all).
    package var personIDs: @Sendable () -> [PersonID]
    /// Every category's id.
    package var categoryIDs: @Sendable () -> [CategoryID]

    /// A snapshot that looks names up through the given functions.
    package init(
        readModels: Projections, personName: @escaping @Sendable (PersonID) -> String?,
        categoryName: @escaping @Sendable (CategoryID) -> String?, personIDs: @escaping @Sendable () -> [PersonID],
        categoryIDs: @escaping @Sendable () -> [CategoryID]
    ) {
        self.readModels = readModels
        self.personName = personName
        self.categoryName = categoryName
        self.personIDs = personIDs
        self.categoryIDs = categoryIDs
    }

    /// A snapshot of names held in dictionaries.
    package init(readModels: Projections, personNames: [PersonID: String], categoryNames: [CategoryID: String] = [:]) {
        self.init(
            readModels: readModels, personName: { personNames[$0] }, categoryName: { categoryNames[$0] },
            personIDs: { Array(personNames.keys) }, categoryIDs: { Array(categoryNames.keys) })
    }
}
