import Foundation
import Synchronization
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Issue 28 (memory after 1M commands in one process): the store's commits wait in memory for
/// the store writer's queue; a writer faster than the store waits for it once more than
/// `StoreWriteQueue.pendingEventsMax` events wait, so what waits stays bounded.
@Suite("Store writer: bounded backlog", .serialized)
struct StoreWriterBackpressureTests {
    @Test("issue 28: with the store writer held up, batches of commands wait for it once more than pendingEventsMax events wait: the backlog stops at the bound plus a hand-over; released, every command reaches the store and equals a replay")
    func backlogIsBounded() async throws {
        let directory = try TemporaryDirectory("tally-store-backlog")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: .checkpointsOnRequest())
        try await ledger.execute(s.setup())
        _ = await ledger.flushedStore()
        let before = await ledger.readModels.transactions.allEntries.count
        let batch = 1_000  // the most one batch holds
        let batches = 6 + StoreWriteQueue.pendingEventsMax / batch
        var commands: [[Command]] = []
        for _ in 0..<batches { commands.append((0..<batch).map { _ in s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100))) }) }
        let held = DispatchSemaphore(value: 0)
        let storeWriter = await ledger.storeWriter
        storeWriter.afterCommits { held.wait() }
        let writing = Task { for commands in commands { try await ledger.execute(commands) } }
        // One hand-over may carry two batches (a store write scheduled behind the second).
        let bound = StoreWriteQueue.pendingEventsMax + 2 * batch
        var most = 0
        let deadline = Date().addingTimeInterval(120)
        // Until the backlog reached the bound, then a while longer: it must not pass it.
        var settledAt: Date?
        let finished = Mutex(false)
        Task {
            _ = await writing.result
            finished.withLock { $0 = true }
        }
        while Date() < deadline, !finished.withLock({ $0 }) {
            most = max(most, storeWriter.pendingEvents)
            if settledAt == nil, most > StoreWriteQueue.pendingEventsMax { settledAt = Date() }
            if let settledAt, Date().timeIntervalSince(settledAt) > 2 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(most > StoreWriteQueue.pendingEventsMax, "the control: the backlog grew past the bound while the writer was held up (\(most))")
        #expect(most <= bound, "the backlog stops at the bound plus a hand-over: \(most) events waited, bound \(bound)")
        held.signal()
        try await writing.value
        #expect(await ledger.flushedStore() != nil, "released, the store shows every command")
        #expect(storeWriter.pendingEvents == 0)
        try await ledger.close()
        let replayed = try LedgerReplay.replay(at: path)
        #expect(replayed.readModels.transactions.allEntries.count == before + batch * batches, "every command acknowledged is in the journal")
    }
}
