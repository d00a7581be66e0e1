import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Issue 31 (Flow US-040, Swiff 1.3.1 history): settlements in paged, filtered lists from the
/// read-side store, for a viewer (G7).
@Suite("Settlement lists (read side)", .serialized)
struct SettlementListTests {
    @Test("S6, G7: settlements list newest first in keyset pages with names; a member sees only those they paid or received; scope and people narrow it; a rebuilt store lists the same rows")
    func settlementsInPages() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("settlement-list", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let trip: GroupID = s.ids.next()
        let (first, second, inGroup): (SettlementID, SettlementID, SettlementID) = (s.ids.next(), s.ids.next(), s.ids.next())
        try await ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(10_000, shared: true))),
            s.command(.createGroup(groupID: trip, name: "Trip", members: [s.bob, Scenario.carol])),
            s.command(.recordGroupExpense(
                expenseID: s.ids.next(), groupID: trip, paidBy: Scenario.carol, amount: Scenario.chf(6_000), date: Scenario.date("2026-01-06"),
                note: nil, split: .equal([s.bob, Scenario.carol]))),
        ])
        try await ledger.execute([
            s.command(.recordSettlement(
                settlementID: first, from: s.bob, to: s.alice, amount: Scenario.chf(2_000), date: Scenario.date("2026-01-10"),
                covers: nil, isAdvance: false, groupID: nil), by: s.bob),
            s.command(.recordSettlement(
                settlementID: second, from: s.bob, to: s.alice, amount: Scenario.chf(1_000), date: Scenario.date("2026-01-12"),
                covers: nil, isAdvance: false, groupID: nil, paymentMethod: "TWINT"), by: s.bob),
            s.command(.recordSettlement(
                settlementID: inGroup, from: s.bob, to: Scenario.carol, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-11"),
                covers: nil, isAdvance: false, groupID: trip), by: s.bob),
        ])
        func ids(_ query: SettlementQuery, on ledger: Ledger) async throws -> [SettlementID] {
            try await TallyTestSupport.allPages(of: query, cursor: \.after, next: \.next) { query in
                try await ledger.settlements(query)
            }.flatMap(\.rows).map(\.settlementID)
        }
        var audit = SettlementQuery(visibleTo: .audit)
        audit.limit = 1
        #expect(try await ids(audit, on: ledger) == [second, inGroup, first], "newest business date first, one per page")
        let rows = try await ledger.settlements(SettlementQuery(visibleTo: .audit)).rows
        #expect(rows.first.map { ($0.fromName, $0.toName, $0.amount, $0.paymentMethod, $0.groupID) } ?? (nil, nil, Scenario.chf(0), nil, nil)
            == ("Bob", "Alice", Scenario.chf(1_000), "TWINT", nil))
        #expect(rows.first { $0.settlementID == inGroup }?.groupID == trip)

        #expect(try await ids(SettlementQuery(visibleTo: .member(s.alice)), on: ledger) == [second, first], "G7: not Bob's settlement with Carol")
        #expect(try await ids(SettlementQuery(visibleTo: .member(Scenario.carol)), on: ledger) == [inGroup])
        var household = SettlementQuery(visibleTo: .audit)
        household.scope = .household
        household.order = .oldestFirst
        #expect(try await ids(household, on: ledger) == [first, second])
        var group = SettlementQuery(visibleTo: .member(s.bob))
        group.scope = .groups([trip])
        #expect(try await ids(group, on: ledger) == [inGroup])
        var carols = SettlementQuery(visibleTo: .audit)
        carols.people = [Scenario.carol]
        carols.dates = Scenario.date("2026-01-01")...Scenario.date("2026-01-31")
        #expect(try await ids(carols, on: ledger) == [inGroup])
        var byAmount = SettlementQuery(visibleTo: .audit)
        byAmount.order = .largestFirst
        await #expect(throws: LedgerError.self) { try await ledger.settlements(byAmount) }

        _ = try await ledger.rebuildReadSide()
        #expect(try await ledger.settlements(SettlementQuery(visibleTo: .audit)).rows == rows, "a rebuild from the journal writes the same rows")
        try await ledger.close()
        let reopened = try await test.reopen()
        #expect(try await ids(SettlementQuery(visibleTo: .member(s.alice)), on: reopened) == [second, first])
        try await reopened.close()
    }
}
