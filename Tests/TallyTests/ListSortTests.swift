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

        #expect(try await ledger.groups(visibleTo: .audit).map(\.name) == ["Flat", "Trip"])
        #expect(try await ledger.groups(visibleTo: .audit, sortedBy: .mostMembers).map(\.memberCount) == [3, 2])
        let byTotal = try await ledger.groups(visibleTo: .audit, sortedBy: .largestTotal)
        #expect(byTotal.map(\.groupID) == [trip, flat])
        #expect(byTotal.first?.totals == [Scenario.chf(6_000)])
        #expect(byTotal.last?.totals == [])
        #expect(try await ledger.groups(visibleTo: .member(s.alice), sortedBy: .largestTotal).map(\.groupID) == [flat], "G7: not a group Alice is not in")
    }
}
