import Foundation
import Synchronization
@testable import Tally
import TallyModel
import TallyProjections
import TallyStore
import TallyTestSupport
import Testing

/// Issue 15: value observation from the read side (`Ledger.observe`, `ObservedValue`).
@Suite("Value observation", .serialized)
struct LedgerObservationTests {
    static func openLedger(_ directory: TemporaryDirectory, _ s: inout Scenario) async throws -> Ledger {
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: .synchronous))
        try await ledger.execute(s.setup())
        return ledger
    }

    static func jointBalance(_ store: LedgerStore) throws(StoreError) -> Int64 {
        try store.walletBalances(visibleTo: .audit).first { $0.name == "Joint" }?.balance.minorUnits ?? -1
    }

    @Test("the sequence yields the current value first, then one value per commit that changed it (a commit that does not change it yields nothing)")
    func currentValueThenChanges() async throws {
        let directory = try TemporaryDirectory("tally-observe")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Self.openLedger(directory, &s)
        var values = await ledger.observe(Self.jointBalance).makeAsyncIterator()
        #expect(try await values.next() == 100_000, "the current value first")
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
        #expect(try await values.next() == 99_000)
        // Renaming a category changes no balance: nothing is yielded for it.
        try await ledger.execute(s.command(.renameCategory(categoryID: s.groceries, name: "Food")))
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(500))))
        #expect(try await values.next() == 98_500, "the next value is the one after the next change")
        try await ledger.close()
        #expect(try await values.next() == nil, "the sequence ends when the ledger closes")
    }

    @Test("close right after a commit delivers that commit's value before the sequence ends (the store write is not skipped)")
    func closeDeliversTheLastCommitsValue() async throws {
        for round in 0..<5 {
            let directory = try TemporaryDirectory("tally-observe-close")
            defer { directory.remove() }
            var s = Scenario()
            let ledger = try await Self.openLedger(directory, &s)
            let stream = await ledger.observe(Self.jointBalance)
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
            try await ledger.close()
            var last: Int64?
            for try await value in stream { last = value }
            #expect(last == 99_000, "round \(round): the last value is the one after the commit")
        }
    }

    @Test("a consumer slower than the commits gets values in commit order, coalesced, ending with the latest: never an error and never an older value")
    func slowConsumerCoalesces() async throws {
        let directory = try TemporaryDirectory("tally-observe-slow")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Self.openLedger(directory, &s)
        let stream = await ledger.observe(Self.jointBalance)
        for _ in 0..<40 {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        }
        var values = stream.makeAsyncIterator()
        // Values are recomputed off the ledger after the store writes, which come after the
        // callers are answered: the consumer sees some of them, each newer than the one before,
        // and at last the value of the last commit.
        let final: Int64 = 100_000 - 40 * 100
        var seen: [Int64] = []
        while seen.last != final {
            let value = try #require(try await values.next())
            #expect(value < (seen.last ?? 100_001), "never an older value: \(value) after \(seen)")
            seen.append(value)
        }
        #expect(seen.count <= 41)
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        #expect(try await values.next() == 100_000 - 41 * 100)
        try await ledger.close()
    }

    @Test("issue 28 item 3: store observations are recomputed off the ledger: an observer that blocks does not hold up commands, reads or later commits, and gets the latest value once it resumes", .timeLimit(.minutes(10)))
    func blockedObserverDoesNotHoldUpTheLedger() async throws {
        let directory = try TemporaryDirectory("tally-observe-blocked")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Self.openLedger(directory, &s)
        let gate = BlockingGate()
        // The first computation (on `observe`) passes; every later one waits for the gate.
        let computations = Mutex(0)
        let stream = await ledger.observe { store throws(StoreError) in
            let count = computations.withLock { count in
                count += 1
                return count
            }
            if count > 1 { gate.wait() }
            return try Self.jointBalance(store)
        }
        var values = stream.makeAsyncIterator()
        #expect(try await values.next() == 100_000)
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
        // The recomputation for that commit now waits in the background. Were it on the
        // ledger's actor, none of these would return and the test would hit its time limit.
        for _ in 0..<5 {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        }
        #expect(await ledger.lastSequenceNumber > 0)
        let page = try await ledger.transactions(TransactionQuery(visibleTo: .audit))
        #expect(page.rows.count == 6)
        gate.open()
        var last: Int64?
        while last != 98_500 { last = try await values.next() }
        #expect(last == 98_500, "the value after the last commit")
        try await ledger.close()
        #expect(try await values.next() == nil)
    }

    @Test("observed pages and reports follow the commits; a value that cannot be computed ends the sequence with invalidQuery")
    func queriesAndFailures() async throws {
        let directory = try TemporaryDirectory("tally-observe-query")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Self.openLedger(directory, &s)
        var twoRows = TransactionQuery(visibleTo: .audit)
        twoRows.limit = 2
        let query = twoRows
        var pages = await ledger.observe { db in try db.transactions(query).rows.map(\.transaction.amount.minorUnits) }
            .makeAsyncIterator()
        #expect(try await pages.next() == [])
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(700))))
        #expect(try await pages.next() == [700])
        var zeroRows = query
        zeroRows.limit = 0
        let invalid = zeroRows
        var failing = await ledger.observe { db in try db.transactions(invalid).rows.count }.makeAsyncIterator()
        await #expect(throws: LedgerError.invalidQuery("a page holds 1...1000 rows, not 0")) { _ = try await failing.next() }
        try await ledger.close()
        var afterClose = await ledger.observe(Self.jointBalance).makeAsyncIterator()
        await #expect(throws: LedgerError.closed) { _ = try await afterClose.next() }
    }

    @Test("an observation whose first value cannot be computed ends at once and is never computed again: later commits that modify the tables it read do not run it")
    func failedFirstValueIsNotKept() async throws {
        let directory = try TemporaryDirectory("tally-observe-first-fails")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Self.openLedger(directory, &s)
        let runs = Atomic<Int>(0)
        var zeroRows = TransactionQuery(visibleTo: .audit)
        zeroRows.limit = 0
        let invalid = zeroRows
        var failing = await ledger.observe { store throws(StoreError) in
            runs.add(1, ordering: .relaxed)
            _ = try store.walletBalances(visibleTo: .audit)  // a table every later commit modifies is in its region
            return try store.transactions(invalid).rows.count
        }.makeAsyncIterator()
        await #expect(throws: LedgerError.invalidQuery("a page holds 1...1000 rows, not 0")) { _ = try await failing.next() }
        for _ in 0..<3 {
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))))
        }
        await ledger.observationsRefreshed()
        #expect(runs.load(ordering: .relaxed) == 1, "computed once, for its first value")
        try await ledger.close()
    }

    @Test("ObservedValue (Observation framework) shows the current value and follows the commits on the main actor")
    @MainActor
    func observedValueFollowsCommits() async throws {
        let directory = try TemporaryDirectory("tally-observe-model")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Self.openLedger(directory, &s)
        let model = ObservedValue(ledger, Self.jointBalance)
        #expect(await Self.eventually { model.value == 100_000 }, "the current value arrives")
        try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(2_500))))
        #expect(await Self.eventually { model.value == 97_500 }, "then the value after the commit")
        #expect(model.failure == nil)
        try await ledger.close()
    }

    /// Waits (up to five seconds) until `condition` holds on the main actor.
    @MainActor
    static func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}

/// A gate a background computation waits at until the test opens it.
private final class BlockingGate: Sendable {
    private let isOpen = Mutex(false)

    /// Waits (polling every millisecond) until ``open()``.
    func wait() {
        while !isOpen.withLock({ $0 }) { usleep(1_000) }
    }

    func open() { isOpen.withLock { $0 = true } }
}
