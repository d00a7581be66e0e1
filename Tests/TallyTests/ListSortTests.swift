import Foundation
@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 31 (Swiff 2.3.2): people sorted by balance, groups by member count or total, for a
/// viewer (G7).
@Suite("List sorts: people by balance, groups by members or total", .serialized)
struct ListSortTests {
    @Test("Swiff 2.3.2, G7: people by largest balance (the personBalances rule, either way owed); groups by name, most members or largest total, only the viewer's groups")
    func peopleAndGroupsSorted() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("list-sorts", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let (trip, flat): (GroupID, GroupID) = (s.ids.next(), s.ids.next())
        try await ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(10_000, shared: true))),
            s.command(.createGroup(groupID: trip, name: "Trip", members: [s.bob, Scenario.carol])),
            s.command(.createGroup(groupID: flat, name: "Flat", members: [s.alice, s.bob, Scenario.carol])),
            s.command(.recordGroupExpense(
                expenseID: s.ids.next(), groupID: trip, paidBy: Scenario.carol, amount: Scenario.chf(6_000), date: Scenario.date("2026-01-06"),
                note: nil, split: .equal([s.bob, Scenario.carol]))),
        ])
        let bobs = try await ledger.personBalances(visibleTo: .member(s.bob), sortedBy: .largestFirst)
        #expect(bobs.map(\.other) == [s.alice, Scenario.carol], "Bob owes Alice 50.00 and Carol 30.00")
        #expect(bobs.map(\.owedToPerson) == [Scenario.chf(-5_000), Scenario.chf(-3_000)])
        #expect(Set(try await ledger.personBalances(visibleTo: .member(s.bob), sortedBy: .byPerson)) == Set(bobs), "the same rows, another order")
        #expect(try await ledger.personBalances(visibleTo: .member(s.alice), sortedBy: .largestFirst).allSatisfy { $0.person == s.alice }, "G7")
        // Swiff 2.3.2 "people by recent activity": the Trip expense (01-06) is newer than the shared one (01-05).
        let byActivity = try await ledger.personBalances(visibleTo: .member(s.bob), sortedBy: .recentActivity)
        #expect(byActivity.map(\.other) == [Scenario.carol, s.alice])
        #expect(try await ledger.personBalances(visibleTo: .member(s.alice), sortedBy: .recentActivity).map(\.other) == [s.bob], "G7: Alice's own pairs only")
        let audit = try await ledger.personBalances(visibleTo: .audit, sortedBy: .recentActivity)
        #expect(audit.map { Set([$0.person, $0.other]) } == [[s.bob, Scenario.carol], [s.bob, Scenario.carol], [s.alice, s.bob], [s.alice, s.bob]],
                "the Bob-Carol pair (01-06) from both sides before the Alice-Bob pair (01-05)")
        try #require(audit.count == 4)
        #expect(audit[0].person < audit[1].person && audit[2].person < audit[3].person, "ties by person")

        #expect(try await ledger.groups(visibleTo: .audit).map(\.name) == ["Flat", "Trip"])
        #expect(try await ledger.groups(visibleTo: .audit, sortedBy: .mostMembers).map(\.memberCount) == [3, 2])
        let byTotal = try await ledger.groups(visibleTo: .audit, sortedBy: .largestTotal)
        #expect(byTotal.map(\.groupID) == [trip, flat])
        #expect(byTotal.first?.totals == [Scenario.chf(6_000)])
        #expect(byTotal.last?.totals == [])
        #expect(try await ledger.groups(visibleTo: .member(s.alice), sortedBy: .largestTotal).map(\.groupID) == [flat], "G7: not a group Alice is not in")
    }

    @Test("Swiff 2.3.2, G7: transactions by category: by the category's name, newest first within one, in keyset pages; the cursor keeps the name; a member's list holds only what they see")
    func transactionsByCategory() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("category-sort", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        var ids: [String: TransactionID] = [:]
        for (label, category, day, payer) in [
            ("r1", s.restaurants, "2026-01-03", s.alice), ("g1", s.groceries, "2026-01-02", s.alice),
            ("g2", s.groceries, "2026-01-04", s.alice), ("r2", s.restaurants, "2026-01-05", s.alice), ("b", s.groceries, "2026-01-06", s.bob),
        ] {
            let id: TransactionID = s.ids.next()
            ids[label] = id
            var entry = s.expense(1_000, payer: payer, category: category)
            entry.date = Scenario.date(day)
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry), by: payer))
        }
        func list(_ viewer: Viewer) async throws -> [TransactionID] {
            var query = TransactionQuery(visibleTo: viewer)
            query.order = .byCategory
            query.limit = 1
            let pages = try await TallyTestSupport.allPages(of: query, cursor: \.after, next: \.next) { query in try await ledger.transactions(query) }
            for cursor in pages.compactMap(\.next) { #expect(TransactionCursor(cursor.description) == cursor, "\(cursor) prints and parses back") }
            return pages.flatMap(\.rows).map(\.transaction.transactionID)
        }
        #expect(try await list(.audit) == ["b", "g2", "g1", "r2", "r1"].compactMap { ids[$0] }, "Groceries before Restaurants, newest first in each")
        #expect(try await list(.member(s.alice)) == ["g2", "g1", "r2", "r1"].compactMap { ids[$0] }, "G7: not Bob's personal expense")
        for text in ["category.20260101.3", "category.20260101.3.x.41", "category.20260101.3.\(s.groceries).4", "category.20260101.3.\(s.groceries).zz"] {
            #expect(TransactionCursor(text) == nil, "\(text)")
        }
        var query = TransactionQuery(visibleTo: .audit)
        query.order = .newestFirst
        query.after = TransactionCursor("category.20260101.3.\(s.groceries).41")
        await #expect(throws: LedgerError.self, "a cursor of the category order continues no other") { try await ledger.transactions(query) }
    }
}
