import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Issue 31 (Flow US-018, US-020): a transaction row carries when it was recorded, last edited
/// and deleted, taken from the events' `recordedAt` (G3: the journal's time, never a clock in
/// the fold), and "Recently deleted" lists the deletions of the 30 days before an instant the
/// host passes in, for a viewer (G7).
@Suite("Edit and deletion times, recently deleted (read side)", .serialized)
struct RecentlyDeletedTests {
    static func at(_ text: String) throws -> Timestamp { try Timestamp(iso8601: text) }

    @Test("US-018, T2, G3: a row carries the recordedAt of the event that recorded it and of its last edit (an undone edit included), kept across a reopen")
    func rowsCarryRecordedAndEditedTimes() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("edit-times", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let id: TransactionID = s.ids.next()
        s.advance(to: "2026-01-06")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(1_200))))
        let recordedAt = Timestamp(millisecondsSinceEpoch: s.clock)
        func row(_ ledger: Ledger) async throws -> StoredTransaction {
            try #require(try await ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.first { $0.transaction.transactionID == id }).transaction
        }
        #expect(try await row(test.ledger).recordedAt == recordedAt)
        #expect(try await row(test.ledger).lastEditedAt == nil, "never edited")
        #expect(try await row(test.ledger).deletedAt == nil)

        s.advance(to: "2026-01-09")
        let edit = s.command(.editTransaction(transactionID: id, entry: s.expense(1_500)))
        try await test.ledger.execute(edit)
        let editedAt = Timestamp(millisecondsSinceEpoch: s.clock)
        #expect(try await row(test.ledger).lastEditedAt == editedAt)
        #expect(try await row(test.ledger).recordedAt == recordedAt, "an edit keeps the recording time")

        s.advance(to: "2026-01-12")
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        let undoneAt = Timestamp(millisecondsSinceEpoch: s.clock)
        #expect(try await row(test.ledger).lastEditedAt == undoneAt, "undoing an edit edits it back")
        #expect(try await row(test.ledger).amount.minorUnits == 1_200)

        try await test.ledger.close()
        let reopened = try await test.reopen()
        let again = try await row(reopened)
        #expect((again.recordedAt, again.lastEditedAt, again.deletedAt) == (recordedAt, undoneAt, nil))
        try await reopened.close()
    }

    @Test("US-020, T3, G7: recently deleted lists what the viewer sees that was deleted within 30 days before the host's instant, latest deletion first, in keyset pages; a restore clears the deletion time; after 30 days the transaction leaves the list and can still be restored")
    func recentlyDeletedWithinThirtyDays() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("recently-deleted", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let (old, alices, bobs, restored): (TransactionID, TransactionID, TransactionID, TransactionID) = (s.ids.next(), s.ids.next(), s.ids.next(), s.ids.next())
        try await ledger.execute([
            s.command(.recordTransaction(transactionID: old, entry: s.expense(100))),
            s.command(.recordTransaction(transactionID: alices, entry: s.expense(200))),
            s.command(.recordTransaction(transactionID: bobs, entry: s.expense(300, payer: s.bob)), by: s.bob),
            s.command(.recordTransaction(transactionID: restored, entry: s.expense(400))),
        ])
        s.advance(to: "2026-01-10")
        try await ledger.execute(s.command(.deleteTransaction(transactionID: old)))
        s.advance(to: "2026-02-01")
        try await ledger.execute(s.command(.deleteTransaction(transactionID: alices)))
        let alicesDeletion = Timestamp(millisecondsSinceEpoch: s.clock)
        s.advance(to: "2026-02-05")
        try await ledger.execute(s.command(.deleteTransaction(transactionID: bobs), by: s.bob))
        s.advance(to: "2026-02-07")
        try await ledger.execute(s.command(.deleteTransaction(transactionID: restored)))
        try await ledger.execute(s.command(.restoreTransaction(transactionID: restored)))

        let now = try Self.at("2026-02-20T10:00:00Z")
        func ids(_ query: TransactionQuery) async throws -> [TransactionID] {
            try await TallyTestSupport.allPages(of: query, cursor: \.after, next: \.next) { query in
                try await ledger.transactions(query)
            }.flatMap(\.rows).map(\.transaction.transactionID)
        }
        var audit = TransactionQuery.recentlyDeleted(asOf: now, visibleTo: .audit)
        audit.limit = 1
        #expect(try await ids(audit) == [bobs, alices], "latest deletion first, page by page; 2026-01-10 is more than 30 days before")
        let first = try await ledger.transactions(audit)
        #expect(first.next?.description.hasPrefix("deleted-desc.") == true)
        #expect(first.rows.first?.transaction.deletedAt != nil)
        #expect(try await ids(.recentlyDeleted(asOf: now, visibleTo: .member(s.alice))) == [alices], "not Bob's personal transaction (G7)")
        #expect(try await ids(.recentlyDeleted(asOf: now, visibleTo: .member(s.bob))) == [bobs], "not Alice's personal transaction (G7)")
        let alicesRow = try #require(try await ledger.transactions(.recentlyDeleted(asOf: now, visibleTo: .audit)).rows.last)
        #expect(alicesRow.transaction.deletedAt == alicesDeletion)
        #expect(!alicesRow.transaction.isLive)

        // Thirty days after Alice's deletion it is still listed; a millisecond later it is not.
        let edge = Timestamp(millisecondsSinceEpoch: alicesDeletion.millisecondsSinceEpoch + TransactionQuery.recentlyDeletedDays * 86_400_000)
        #expect(try await ids(.recentlyDeleted(asOf: edge, visibleTo: .member(s.alice))) == [alices])
        let past = Timestamp(millisecondsSinceEpoch: edge.millisecondsSinceEpoch + 1)
        #expect(try await ids(.recentlyDeleted(asOf: past, visibleTo: .member(s.alice))) == [])

        // Out of the window but kept: every deleted one is listed by `deleted: .only`, and it can be restored.
        var deleted = TransactionQuery(visibleTo: .audit)
        deleted.deleted = .only
        #expect(Set(try await ids(deleted)) == [old, alices, bobs])
        try await ledger.execute(s.command(.restoreTransaction(transactionID: old)))
        let live = try await ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.map(\.transaction)
        #expect(live.first { $0.transactionID == old }?.deletedAt == nil)
        #expect(live.first { $0.transactionID == restored }.map { ($0.isLive, $0.deletedAt) } ?? (false, nil) == (true, nil), "a restore clears the deletion time")

        let earliest = TransactionQuery.recentlyDeleted(asOf: Timestamp(millisecondsSinceEpoch: .min + 1), visibleTo: .audit)
        #expect(earliest.deletedWithin?.lowerBound == Timestamp(millisecondsSinceEpoch: .min), "no wrap at the start of time")
        #expect(try await ids(earliest) == [])

        var wrongOrder = audit
        wrongOrder.after = first.next
        wrongOrder.order = .newestFirst
        await #expect(throws: LedgerError.self) { try await ledger.transactions(wrongOrder) }
    }
}
