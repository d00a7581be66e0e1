import Foundation
import GRDB
import Synchronization
import SystemPackage
@testable import Tally
import TallyJournal
import TallyProjections
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// Issue 28 item 5: `tally rebuild` folds the journal into a new store in bounded memory,
/// window by window, with what the fold keeps of history in a scratch archive between windows.
@Suite("Read-side store: a rebuild that streams the journal", .serialized)
struct StoreRebuildTests {
    @Test("issue 28 item 5: folded in windows of a few events (history read back from the scratch archive between them), the rebuilt store holds, table by table, what the ledger's own store holds; the scratch archive is gone afterwards", arguments: [7, 50, 10_000])
    func windowedRebuildEqualsTheLedgersStore(window: Int) async throws {
        let directory = try TemporaryDirectory("tally-store-rebuild")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        let (setup, commands) = ReadSideIncrementalTests.history(seed: 11, count: 300)
        try await ledger.execute(setup)
        var executed = 0
        for command in commands where (try? await ledger.execute(command)) != nil { executed += 1 }
        #expect(executed > 200, "the control: most generated commands are accepted (\(executed))")
        let live = try #require(await ledger.flushedStore()).contentDigests()
        try await ledger.close()

        let (keys, reader) = try LedgerReplay.openForReading(at: path, encryption: nil, fileSystem: PosixFileSystem(), allowingDamage: false)
        let storePath = directory.appending("rebuilt.sqlite").string
        let store = try LedgerStore(path: storePath, key: LedgerStore.integrityKey)
        defer { store.close() }
        var windows = 0
        var historyRowsSeen: [Int] = []
        let coverage = try StoreRebuild.fold(
            reader, through: reader.lastSequenceNumber, personalTexts: keys, into: store, checkpoint: keys.fingerprints, window: window,
            progress: { _, _ in
                windows += 1
                historyRowsSeen.append((try? store.historyEntries(space: ArchiveSpace.transactions.rawValue, from: nil, through: nil).count) ?? -1)
            })
        #expect(coverage == live.coverage)
        let rebuilt = try store.contentDigests()
        #expect(rebuilt.coverage == live.coverage)
        for table in live.tables.keys.sorted() {
            #expect(rebuilt.tables[table] == live.tables[table], "table \(table) differs from the ledger's store (window \(window))")
        }
        // A window ends at the first frame end after `window` events (a frame may hold several).
        let windowsMax = Int(reader.lastSequenceNumber) / window + 1
        #expect(window >= Int(reader.lastSequenceNumber) ? windows == 1 : (windows > windowsMax / 2 && windows <= windowsMax),
                "the control: \(windows) windows committed of at most \(windowsMax)")
        #expect(window >= Int(reader.lastSequenceNumber) || (historyRowsSeen.count > 1 && historyRowsSeen[1] > 0),
                "the history went to the store's history table window by window: \(historyRowsSeen)")
        let checkpoint = try #require(try Checkpoint.stored(in: store), "the fold ends with a checkpoint")
        #expect(checkpoint.sequenceNumber == coverage.sequenceNumber && checkpoint.chainValue.bytes == coverage.chainValue)
        let restored = try FoldedState(checkpoint: checkpoint, history: StoreHistory(store: store)).detached()
        let replayed = try LedgerReplay.replay(at: path)
        #expect(restored.state == replayed.state, "the rebuilt store's checkpoint with its history is the journal's state")
    }

    @Test("issue 28 item 5: Ledger.rebuildReadSide swaps in the streamed store and reports progress in events; the ledger keeps serving and writing")
    func ledgerRebuildStreams() async throws {
        let directory = try TemporaryDirectory("tally-store-rebuild-ledger")
        defer { directory.remove() }
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: ReadSideIncrementalTests.options())
        let (setup, commands) = ReadSideIncrementalTests.history(seed: 5, count: 140)
        try await ledger.execute(setup)
        for command in commands.prefix(120) { _ = try? await ledger.execute(command) }
        let before = try #require(await ledger.flushedStore()).contentDigests()
        let last = await ledger.lastSequenceNumber
        let reported = Mutex<(done: Int, total: Int)>((0, 0))
        _ = try await ledger.rebuildReadSide { done, total in reported.withLock { $0 = (done, total) } }
        let progress = reported.withLock { $0 }
        #expect(progress.done == Int(last) && progress.total == Int(last), "the last progress is every event of the journal")
        let after = try #require(await ledger.flushedStore()).contentDigests()
        #expect(after.coverage == before.coverage)
        #expect(after.tables == before.tables)
        var executedAfter = 0
        for command in commands.dropFirst(120) where (try? await ledger.execute(command)) != nil { executedAfter += 1 }
        #expect(executedAfter > 0, "the control: commands after the rebuild are accepted")
        #expect(try #require(await ledger.flushedStore()).coverage()?.sequenceNumber ?? 0 > last, "the next commit lands in the new store")
        #expect(await ledger.storeHistory.failure == nil, "the state reads its history from the new store")
        let state = await ledger.state
        try await ledger.close()
        #expect(try LedgerReplay.replay(at: directory.appending("ledger")).state == state)
    }

    @Test("issue 28 item 5, P3: what a killed rebuild left (the scratch store with its WAL, the scratch archive) is removed by the next writer's open")
    func leftoversOfAKilledRebuildAreRemoved() async throws {
        let directory = try TemporaryDirectory("tally-store-rebuild-leftovers")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        try await ledger.execute(ReadSideIncrementalTests.history(seed: 3, count: 1).setup)
        try await ledger.close()
        let store = LedgerDirectory(path).readSideStore.string
        // The scratch store, and the scratch archive versions before the checkpoint was the
        // store's left beside it (`.rebuild-history`).
        let scratch = LedgerStore.scratchPath(for: store)
        let leftovers = LedgerStore.files(at: scratch) + LedgerStore.files(at: scratch + "-history")
        #expect(leftovers.count == 6, "the control: the scratch store and the old scratch archive, each with -wal and -shm")
        for file in leftovers { #expect(FileManager.default.createFile(atPath: file, contents: Data("Forgotten Person".utf8))) }
        try Ledger.currentStore(at: path)?.close()  // a reader leaves them
        #expect(leftovers.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let reopened = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        try await reopened.close()
        let remaining = leftovers.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(remaining.isEmpty, "\(remaining)")
    }

    /// A ledger at `directory/ledger`, open, after a generated history of `count` commands.
    static func ledger(in directory: TemporaryDirectory, seed: UInt64, count: Int) async throws -> (FilePath, Ledger) {
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        let (setup, commands) = ReadSideIncrementalTests.history(seed: seed, count: count)
        try await ledger.execute(setup)
        for command in commands { _ = try? await ledger.execute(command) }
        return (path, ledger)
    }

    @Test("issue 28 item 5: after a rebuild (its new store filled in bulk), the swapped-in store opens with exactly the schema a new store has and serves a query by wallet; a store filled without indexes (an audit's scratch store) is refused by the open, so it is never served")
    func bulkLoadedStores() async throws {
        let directory = try TemporaryDirectory("tally-store-bulk-load")
        defer { directory.remove() }
        let (path, ledger) = try await Self.ledger(in: directory, seed: 3, count: 120)
        let before = try #require(await ledger.flushedStore()).contentDigests()
        _ = try await ledger.rebuildReadSide()
        try await ledger.close()

        let storePath = LedgerDirectory(path).readSideStore.string
        let reopened = try LedgerStore(path: storePath, key: LedgerStore.integrityKey)
        #expect(try reopened.contentDigests().tables == before.tables)
        let wallet = try #require(try reopened.walletBalances(visibleTo: .audit).first?.walletID)
        var query = TransactionQuery(visibleTo: .audit)
        query.walletIDs = [wallet]
        let page = try reopened.transactions(query).rows.map(\.transaction)
        #expect(!page.isEmpty && page.allSatisfy { $0.walletID == wallet }, "the control: the wallet has transactions")
        reopened.close()

        let scratchPath = directory.appending("unindexed.sqlite").string
        let scratch = try LedgerStore(path: scratchPath, key: LedgerStore.integrityKey)
        try scratch.beginBulkLoad()
        try scratch.dropHistoryIndexes()
        scratch.close()
        #expect {
            _ = try LedgerStore(path: scratchPath, key: LedgerStore.integrityKey)
        } throws: { error in
            guard case .damaged(_, let message) = error as? StoreError else { return false }
            return message.contains("missing or changed") && message.contains("transactions_by_wallet")
        }
    }

    @Test("issue 28 item 5: a bulk load is refused on a store that already covers events (it would drop a live store's indexes); the store keeps its schema")
    func bulkLoadRefusedOnACoveredStore() async throws {
        let directory = try TemporaryDirectory("tally-store-bulk-load-refused")
        defer { directory.remove() }
        let (path, ledger) = try await Self.ledger(in: directory, seed: 4, count: 1)
        try await ledger.close()
        let storePath = LedgerDirectory(path).readSideStore.string
        let store = try LedgerStore(path: storePath, key: LedgerStore.integrityKey)
        #expect(throws: StoreError.self) { try store.beginBulkLoad() }
        #expect(throws: StoreError.self) { try store.dropHistoryIndexes() }
        store.close()
        let reopened = try LedgerStore(path: storePath, key: LedgerStore.integrityKey)
        defer { reopened.close() }
        #expect(try reopened.coverage() != nil, "the store opens with its schema whole (the open checks it) and covers its events")
    }

    @Test("issue 28: a store of an older schema (8: the live digest formatted each value as text) is readSideDamaged in the audit and rebuilt by the writer's open into the current schema, with the same rows")
    func olderSchemaIsRebuiltAtOpen() async throws {
        let directory = try TemporaryDirectory("tally-store-older-schema")
        defer { directory.remove() }
        let (path, ledger) = try await Self.ledger(in: directory, seed: 8, count: 60)
        let before = try #require(await ledger.flushedStore()).contentDigests()
        try await ledger.close()

        let storePath = LedgerDirectory(path).readSideStore.string
        let pool = try EncryptedSQLite.openPool(atPath: storePath, key: LedgerStore.integrityKey)
        try await pool.write { database in try database.execute(sql: "PRAGMA user_version = 8") }
        try pool.close()
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.problems.contains { $0.code == "readSideDamaged" && $0.message.contains("schema version 8") }, "\(audit.problems)")

        let reopened = try await Ledger.open(at: path, options: ReadSideIncrementalTests.options())
        #expect(reopened.openReport.readSide.hasPrefix("rebuilt"), "\(reopened.openReport.readSide)")
        let after = try #require(await reopened.flushedStore()).contentDigests()
        #expect(after.coverage == before.coverage)
        #expect(after.tables == before.tables)
        try await reopened.close()
    }
}
