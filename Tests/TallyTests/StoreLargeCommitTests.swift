import Foundation
import SystemPackage
@testable import Tally
import TallyProjections
import TallyStore
import TallyTestSupport
import Testing

/// The read-side store keeps every commit across a close (issue 14's read side): found when
/// `tally-scale` met a store that had lost its last commit of 1,000 transactions.
@Suite("Read side: large commits survive a close")
struct StoreLargeCommitTests {
    @Test("nine commits of 1,000 transactions each (more dirty pages than SQLite's cache) are all there after close and reopen")
    func largeCommitsSurviveClose() async throws {
        let directory = try TemporaryDirectory("tally-store-large-commits")
        defer { directory.remove() }
        // The events and read models of nine batches, from a ledger without a store.
        var s = Scenario()
        var options = LedgerOptions(durability: .none)
        options.keepsReadSide = false
        let source = directory.appending("source")
        let ledger = try await Ledger.open(at: source, options: options)
        try await ledger.execute(s.setup())
        for _ in 0..<9 {
            var batch: [Command] = []
            for _ in 0..<1_000 { batch.append(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100)))) }
            try await ledger.execute(batch)
        }
        try await ledger.close()
        let replayed = try LedgerReplay.replay(at: source)
        let snapshot = StoreSnapshot(
            readModels: replayed.readModels, personNames: replayed.state.people.reduce(into: [:]) { $0[$1.key] = $1.value.name.description },
            categoryNames: replayed.state.categories.mapValues(\.name))
        let path = directory.appending("read-side.sqlite").string
        // As the engine does: a first open finds the store empty and fills it (a rebuild, which
        // truncates the WAL), then commits after each batch.
        let store = try LedgerStore(path: path)
        #expect(try store.coverage() == nil)
        try store.replaceAll(from: StoreSnapshot(readModels: Projections(), personNames: [:]), coverage: StoreCoverage(sequenceNumber: 0, chainValue: [UInt8](repeating: 0, count: 32)))
        var cursor = try LedgerReplay.eventCursor(at: source)
        var changes = StoreChanges()
        var last: UInt64 = 0
        while let event = try cursor.next() {
            changes.add(event.event, sequenceNumber: event.sequenceNumber)
            last = event.sequenceNumber
            if last % 1_000 == replayed.lastSequenceNumber % 1_000 {  // the batches' ends
                try store.commit(changes, from: snapshot, coverage: StoreCoverage(sequenceNumber: last, chainValue: replayed.chainValue.bytes))
                changes = StoreChanges()
            }
        }
        store.close()
        let reopened = try LedgerStore(path: path)
        defer { reopened.close() }
        #expect(try reopened.coverage()?.sequenceNumber == replayed.lastSequenceNumber, "the last commit is there")
        #expect(try reopened.rowCounts()["transactions"] == 9_000)
    }
}
