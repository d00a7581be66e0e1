import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Issue 15: the activity feed (who did what when, newest first, paged) with undo marks (T5).
@Suite("Activity feed")
struct LedgerActivityTests {
    @Test("R5, T5: newest command first with its actor, time, events and the entities it touched; undo marks agree with what undo and redo then do")
    func entriesCarryWhoWhatWhenAndUndo() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("activity")
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let first: TransactionID = s.ids.next()
        let second: TransactionID = s.ids.next()
        let record = s.command(.recordTransaction(transactionID: first, entry: s.expense(1_000)), by: s.bob)
        let edit = s.command(.editTransaction(transactionID: first, entry: s.expense(1_200)))
        let recordSecond = s.command(.recordTransaction(transactionID: second, entry: s.expense(500)))
        try await ledger.execute([record, edit, recordSecond])
        let undo = s.command(.undo(targetCommandID: recordSecond.commandID))
        try await ledger.execute(undo)

        let page = try await ledger.activity(ActivityQuery(visibleTo: .audit))
        #expect(page.next == nil)
        #expect(page.entries.map(\.commandID).prefix(4) == [undo, recordSecond, edit, record].map(\.commandID)[...])
        #expect(page.entries.count == 8, "four set-up commands and four more")
        let byID = Dictionary(uniqueKeysWithValues: page.entries.map { ($0.commandID, $0) })
        #expect(byID[record.commandID]?.entities == ["transaction/\(first)"], "R5: the entities a command touched")
        #expect(byID[edit.commandID]?.entities == ["transaction/\(first)"])
        let recorded = try #require(byID[record.commandID])
        #expect(recorded.actor == s.bob && recorded.actorName == "Bob")
        #expect(recorded.recordedAt == record.recordedAt)
        #expect(recorded.events == [.transactionRecorded])
        guard case .unavailable(let reason) = recorded.undo else {
            Issue.record("the recording has a later edit depending on it: \(recorded.undo)")
            return
        }
        #expect(reason.contains("depends on it"), "\(reason)")
        #expect(byID[edit.commandID]?.undo == .undoable)
        #expect(byID[recordSecond.commandID]?.isUndone == true && byID[recordSecond.commandID]?.undo == .redoable)
        let undoEntry = try #require(byID[undo.commandID])
        #expect(undoEntry.target == recordSecond.commandID)
        #expect(undoEntry.events.first == .commandUndone)
        if case .undoable = undoEntry.undo { Issue.record("an undo is not itself undoable (T5)") }

        // The marks are what execute then does.
        try await ledger.execute(s.command(.redo(targetCommandID: recordSecond.commandID)))
        await #expect(throws: LedgerError.self) { try await ledger.execute(s.command(.undo(targetCommandID: record.commandID))) }
        try await ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        let after = try await ledger.activity(ActivityQuery(visibleTo: .audit))
        #expect(after.entries.first { $0.commandID == record.commandID }?.undo == .undoable, "with the edit undone the recording can be undone")
        try await ledger.close()
    }

    @Test("issue 15 activity pages: read in pages of 3 every command is listed once, newest first; a command executed between pages does not shift the next page; invalid pages are typed errors")
    func pagesListEveryCommandOnce() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("activity-pages")
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        for index in 0..<20 {
            let command = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(100 + Int64(index))))
            // Batches of two commands now and then.
            try await ledger.execute(index % 4 == 0 ? [command, s.command(.setPayday(day: 1 + index))] : [command])
        }
        var query = ActivityQuery(visibleTo: .audit)
        query.limit = 3
        var fetched = 0
        let pages = try await allPages(of: query, cursor: \.before, next: \.next) { query in
            // A command recorded between the second page and the third is not listed.
            if fetched == 2 { try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1)))) }
            fetched += 1
            return try await ledger.activity(query)
        }
        let listed = pages.flatMap { $0.entries.map(\.commandID) }
        #expect(pages.dropLast().allSatisfy { $0.entries.count == 3 }, "only the last page is short")
        for next in pages.compactMap(\.next) {
            #expect(ActivityCursor(next.description) == next, "a cursor prints and parses back")
        }
        #expect(listed.count == Set(listed).count, "no command twice")
        #expect(listed.count == 4 + 20 + 5, "set-up, 20 recordings, 5 paydays")
        let sequences = try await ledger.activity(ActivityQuery(visibleTo: .audit)).entries.map(\.sequenceNumbers.lowerBound)
        #expect(sequences == sequences.sorted(by: >), "newest first")
        query.limit = 0
        await #expect(throws: LedgerError.self) { try await ledger.activity(query) }
        #expect(ActivityCursor("before.0") == nil && ActivityCursor("after.3") == nil && ActivityCursor("before.x") == nil)
        try await ledger.close()
    }
}
