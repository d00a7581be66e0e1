import Foundation
import GRDB
import Synchronization
import SystemPackage
import Tally
import TallyModel
import TallySQLiteEncryption
import TallyStore
import TallyTestSupport
import Testing

/// Issue 28 items 3, 5 and the attacks on derived files: a commit writes only the rows that
/// changed and re-runs only the observations that read them, yet the store holds exactly what a
/// rebuild from the journal writes; a store that does not (an edited row, a damaged page) is
/// found by `tally audit` and rebuilt into a new file, never served.
@Suite("Read-side store: commits proportional to what changed", .serialized)
struct ReadSideIncrementalTests {
    static func options() -> LedgerOptions { .checkpointsOnRequest() }

    static func storeFile(_ path: FilePath) -> String { LedgerDirectory(path).readSideStore.string }

    /// A generated household (every wallet kind, transfers, balance points, rates, edits,
    /// deletes, undo and redo) with people added, renamed and forgotten and categories
    /// created, renamed and deleted in between: every kind of live row.
    static func history(seed: UInt64, count: Int) -> (setup: [Command], commands: [Command]) {
        var generator = HouseholdGenerator(seed: seed)
        let setup = generator.setup()
        var commands: [Command] = []
        var people: [PersonID] = []
        var categories: [CategoryID] = []
        for index in 0..<count {
            switch index % 23 {
            case 3:
                let person: PersonID = generator.scenario.ids.next()
                people.append(person)
                commands.append(generator.scenario.command(.addPerson(personID: person, name: "Contact \(index)")))
            case 7 where !people.isEmpty:
                commands.append(generator.scenario.command(.updatePerson(personID: people[index % people.count], name: "Renamed \(index)", email: nil, phone: nil)))
            case 11:
                let category: CategoryID = generator.scenario.ids.next()
                categories.append(category)
                commands.append(generator.scenario.command(.createCategory(
                    categoryID: category, name: "Category \(index)", group: .expense, budgetType: .wants, shareable: false,
                    icon: nil, color: nil)))
            case 13 where !categories.isEmpty:
                commands.append(generator.scenario.command(.renameCategory(categoryID: categories[index % categories.count], name: "Now \(index)")))
            case 17 where categories.count > 1:
                commands.append(generator.scenario.command(.deleteCategory(categoryID: categories.removeFirst(), reassignTo: nil)))
            case 19 where people.count > 2:
                commands.append(generator.scenario.command(.forgetPerson(personID: people.removeFirst())))
            default:
                commands.append(generator.next())
            }
        }
        return (setup, commands)
    }

    @Test("read side: a store written commit by commit holds, table by table, exactly what a rebuild from the journal writes (people, categories, wallets, debts, transfers, undo, forgetting)", arguments: [UInt64(7), 28])
    func incrementalCommitsEqualRebuild(seed: UInt64) async throws {
        let directory = try TemporaryDirectory("tally-store-incremental")
        defer { directory.remove() }
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        let (setup, commands) = Self.history(seed: seed, count: 400)
        try await ledger.execute(setup)
        var executed = 0
        for command in commands where (try? await ledger.execute(command)) != nil { executed += 1 }
        #expect(executed > 300, "the control: most generated commands are accepted (\(executed))")
        let live = try #require(await ledger.flushedStore()).contentDigests()
        _ = try await ledger.rebuildReadSide()
        let rebuilt = try #require(await ledger.flushedStore()).contentDigests()
        #expect(live.coverage == rebuilt.coverage)
        for table in rebuilt.tables.keys.sorted() {
            #expect(live.tables[table] == rebuilt.tables[table], "table \(table) differs from a rebuild")
        }
        let counts = try #require(await ledger.flushedStore()).rowCounts()
        #expect((counts["people"] ?? 0) > 10 && (counts["categories"] ?? 0) > 10, "the control: people and categories were written")
        try await ledger.close()
    }

    @Test("issue 28 (bytes beside the journal): a ledger's close leaves the store's WAL empty, with reader connections open at the close (GRDB closes its read-only readers last, and SQLite's own cleanup runs only on a connection that can write)")
    func closeLeavesTheWriteAheadLogEmpty() async throws {
        let directory = try TemporaryDirectory("tally-store-wal")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        let ledger = try await Ledger.open(at: path, options: Self.options())
        let (setup, commands) = Self.history(seed: 3, count: 200)
        try await ledger.execute(setup)
        for command in commands { _ = try? await ledger.execute(command) }
        let store = try #require(await ledger.flushedStore())
        let balances = try store.walletBalances(visibleTo: .audit)
        #expect(!balances.isEmpty, "the control: a reader connection read the store")
        let wal = Self.storeFile(path) + "-wal"
        let before = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0
        #expect(before > 0, "the control: the commits are in the WAL before the close")
        try await ledger.close()
        let after = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(after == 0, "the WAL holds \(after) bytes after the close")
        let reopened = try await Ledger.open(at: path, options: Self.options())
        #expect(try #require(await reopened.flushedStore()).walletBalances(visibleTo: .audit) == balances, "the store reads the same after the close")
        try await reopened.close()
    }

    @Test("read side: an observation is recomputed only after a commit that modified a table it read (region tracking)")
    func observationRecomputedOnlyForItsTables() async throws {
        let directory = try TemporaryDirectory("tally-store-regions")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: Self.options())
        try await ledger.execute(s.setup())
        let computed = Counter()
        let names = await ledger.observe { store throws(StoreError) in
            computed.increment()
            return try store.categoryNames().count
        }
        let first = Task { () -> [Int] in
            var values: [Int] = []
            for try await value in names {
                values.append(value)
                if values.count == 2 { break }
            }
            return values
        }
        try await Task.sleep(for: .milliseconds(20))
        let before = computed.value
        for index in 0..<5 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(Int64(100 + index))))) }
        await ledger.observationsRefreshed()  // the store write of the last commit and the recomputations it asked for have run
        #expect(computed.value == before, "transactions modify no table the observation read")
        let category: CategoryID = s.ids.next()
        try await ledger.execute(s.command(.createCategory(
            categoryID: category, name: "Books", group: .expense, budgetType: .wants, shareable: false, icon: nil, color: nil)))
        await ledger.observationsRefreshed()
        #expect(computed.value == before + 1, "a new category modifies the table it read")
        let values = try await first.value
        #expect(values.count == 2 && values[1] == values[0] + 1)
        try await ledger.close()
    }

    @Test("audit: a store row edited and resealed with the public integrity key is found (readSideDiffers names the table)")
    func auditFindsEditedStoreRow() async throws {
        let directory = try TemporaryDirectory("tally-store-edited")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        try await ReadSideTests.write(ReadSideTests.history(&s, count: 6), to: path)
        #expect(try LedgerAudit.audit(at: path).isClean, "the control: an untouched ledger audits clean")
        let pool = try EncryptedSQLite.openPool(atPath: Self.storeFile(path), key: LedgerStore.integrityKey)
        try await pool.write { database in
            try database.execute(sql: "UPDATE transactions SET amount = -999999 WHERE transaction_id = (SELECT MIN(transaction_id) FROM transactions)")
        }
        try pool.close()
        let report = try LedgerAudit.audit(at: path)
        let problem = try #require(report.problems.first { $0.code == "readSideDiffers" }, "\(report.problems)")
        #expect(problem.message.contains("transactions"))
    }

    @Test("read side: a flipped bit in any page of the store is refused or rebuilt into a new file by rebuildReadSide, never served; the ledger's figures stay right")
    func damagedPageIsRebuiltIntoNewFile() async throws {
        let directory = try TemporaryDirectory("tally-store-page-flip")
        defer { directory.remove() }
        let original = directory.appending("original")
        var s = Scenario()
        try await ReadSideTests.write(ReadSideTests.history(&s, count: 40), to: original)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: Self.storeFile(original))[.size] as? Int)
        let pageBytes = 4096
        #expect(size / pageBytes > 3, "the control: the store has several pages")
        for page in 0..<(size / pageBytes) {
            let copy = directory.appending("page-\(page)")
            try FileManager.default.copyItem(atPath: original.string, toPath: copy.string)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: Self.storeFile(copy)))
            try handle.seek(toOffset: UInt64(page * pageBytes + 100))
            let byte = try #require(try handle.read(upToCount: 1)?.first)
            try handle.seek(toOffset: UInt64(page * pageBytes + 100))
            try handle.write(contentsOf: [byte ^ 0x10])
            try handle.close()
            let ledger = try await Ledger.open(at: copy, options: Self.options())
            _ = try await ledger.rebuildReadSide()
            try await ReadSideTests.expectStoreMatches(ledger)
            let store = try #require(await ledger.flushedStore())
            var everything = TransactionQuery(visibleTo: .audit)
            everything.limit = TransactionQuery.limitMax
            everything.deleted = .included
            let recorded = await ledger.readModels.wallets.transactionIDs.count
            #expect(try store.transactions(everything).rows.count == recorded, "page \(page): every transaction is listed after the rebuild")
            try await ledger.close()
            #expect(try LedgerAudit.audit(at: copy).isClean, "page \(page): the rebuilt store audits clean")
            try FileManager.default.removeItem(atPath: copy.string)
        }
    }
}

/// A count shared with a `@Sendable` closure.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
