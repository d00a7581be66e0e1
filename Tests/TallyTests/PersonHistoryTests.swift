import Foundation
@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 31 (Swiff 1.3.1 sparkline and history): a person's balance with another over time,
/// their transactions by settled / pending state and their group expenses across groups, for a
/// viewer (G7).
@Suite("A person's history: balance over time, settled / pending, group expenses across groups", .serialized)
struct PersonHistoryTests {
    @Test("Swiff 1.3.1 sparkline, S5, S8: one point per date the pair's balance changed, household and group parts summed by the personBalances rule; the last point is the current balance; the same after a checkpoint, a rebuild of the store and a reopen")
    func historyOfAPair() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("balance-history", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let flat: GroupID = s.ids.next()
        var later = s.expense(4_000, shared: true)
        later.date = Scenario.date("2026-01-08")
        try await ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(10_000, shared: true))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: later)),
            // Bob's personal expense: no debt, in no one's balance.
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(7_700, payer: s.bob)), by: s.bob),
            s.command(.createGroup(groupID: flat, name: "Flat", members: [s.alice, s.bob, Scenario.carol])),
            s.command(.recordGroupExpense(
                expenseID: s.ids.next(), groupID: flat, paidBy: Scenario.carol, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-07"),
                note: nil, split: .equal([s.alice, s.bob, Scenario.carol]))),
            s.command(.recordGroupExpense(
                expenseID: s.ids.next(), groupID: flat, paidBy: s.alice, amount: Scenario.chf(6_000), date: Scenario.date("2026-01-09"),
                note: nil, split: .equal([s.alice, s.bob, Scenario.carol]))),
        ])
        try await ledger.execute([s.command(.recordSettlement(
            settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(2_000), date: Scenario.date("2026-01-10"),
            covers: nil, isAdvance: false, groupID: nil), by: s.bob)])

        func summary(_ points: [PersonBalancePoint]) -> [String] {
            points.map { point in
                "\(point.date.isoString) " + point.balances.map { "\($0.owedToPerson.minorUnits)=\($0.household.minorUnits)+\($0.groups[flat]?.minorUnits ?? 0)" }.joined(separator: ",")
            }
        }
        let history = try await ledger.personBalanceHistory(of: s.alice, with: s.bob, visibleTo: .member(s.alice))
        // 01-07: Carol's expense changes the plan between Alice and Carol, Bob and Carol only: no point.
        #expect(summary(history) == ["2026-01-05 5000=5000+0", "2026-01-08 7000=7000+0", "2026-01-09 8000=7000+1000", "2026-01-10 6000=5000+1000"])
        let current = try await ledger.personBalances(visibleTo: .member(s.alice)).filter { $0.other == s.bob }
        #expect(history.last?.balances == current, "the last point is the current balance")
        #expect(try await ledger.personBalanceHistory(of: s.alice, with: s.bob, visibleTo: .audit) == history)
        let bobs = try await ledger.personBalanceHistory(of: s.bob, with: s.alice, visibleTo: .member(s.bob))
        #expect(bobs.map(\.date) == history.map(\.date) && bobs.last?.balances.map(\.owedToPerson) == [Scenario.chf(-6_000)], "Bob's side, negated")
        #expect(try await ledger.personBalanceHistory(of: s.alice, with: s.bob, visibleTo: .member(s.bob)) == history, "G7: Bob is in the pair")
        #expect(try await ledger.personBalanceHistory(of: s.alice, with: s.bob, visibleTo: .member(Scenario.carol)).isEmpty, "G7: Carol is not")
        await #expect(throws: LedgerError.self) { try await ledger.personBalanceHistory(of: s.alice, with: s.alice, visibleTo: .audit) }
        let carols = try await ledger.personBalanceHistory(of: Scenario.carol, with: s.alice, visibleTo: .member(Scenario.carol))
        #expect(carols.map(\.date.isoString) == ["2026-01-07", "2026-01-09"], "the group only: Alice pays Carol 30.00, then nothing")
        #expect(carols.last?.balances == [], "back at zero: an empty point")

        try await ledger.checkpoint()
        _ = try await ledger.rebuildReadSide()
        #expect(try await ledger.personBalanceHistory(of: s.alice, with: s.bob, visibleTo: .member(s.alice)) == history, "after a rebuild")
        try await ledger.close()
        let reopened = try await test.reopen()
        #expect(try await reopened.personBalanceHistory(of: s.alice, with: s.bob, visibleTo: .member(s.alice)) == history, "from the checkpoint and the store")
        try await reopened.close()
    }

    @Test("Swiff 1.3.1 history, S6, G7: a settled / pending filter on transaction pages (whether every share is covered, from the debt read model) and one list of a person's group expenses across groups, settled or open; a member sees neither another member's personal entries nor a group they are not in")
    func settledPendingAndGroupExpenses() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("person-history", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let (covered, open, bobsOwn, alicesOwn): (TransactionID, TransactionID, TransactionID, TransactionID) = (s.ids.next(), s.ids.next(), s.ids.next(), s.ids.next())
        let (trip, flat): (GroupID, GroupID) = (s.ids.next(), s.ids.next())
        let (inTrip, inFlat, withoutBob): (GroupExpenseID, GroupExpenseID, GroupExpenseID) = (s.ids.next(), s.ids.next(), s.ids.next())
        try await ledger.execute([
            s.command(.addPerson(personID: Scenario.carol, name: "Carol")),
            s.command(.recordTransaction(transactionID: covered, entry: s.expense(10_000, shared: true))),
            s.command(.recordTransaction(transactionID: open, entry: s.expense(4_000, shared: true))),
            s.command(.recordTransaction(transactionID: bobsOwn, entry: s.expense(7_700, payer: s.bob)), by: s.bob),
            s.command(.recordTransaction(transactionID: alicesOwn, entry: s.expense(3_300))),
            s.command(.createGroup(groupID: trip, name: "Trip", members: [s.bob, Scenario.carol])),
            s.command(.createGroup(groupID: flat, name: "Flat", members: [s.alice, s.bob, Scenario.carol])),
            s.command(.recordGroupExpense(
                expenseID: inTrip, groupID: trip, paidBy: Scenario.carol, amount: Scenario.chf(6_000), date: Scenario.date("2026-01-06"),
                note: nil, split: .equal([s.bob, Scenario.carol]))),
            s.command(.recordGroupExpense(
                expenseID: inFlat, groupID: flat, paidBy: s.alice, amount: Scenario.chf(3_000), date: Scenario.date("2026-01-07"),
                note: nil, split: .equal([s.alice, s.bob, Scenario.carol]))),
            s.command(.recordGroupExpense(
                expenseID: withoutBob, groupID: flat, paidBy: Scenario.carol, amount: Scenario.chf(2_000), date: Scenario.date("2026-01-08"),
                note: nil, split: .equal([s.alice, Scenario.carol]))),
        ])
        try await ledger.execute([
            s.command(.recordSettlement(
                settlementID: s.ids.next(), from: s.bob, to: s.alice, amount: Scenario.chf(5_000), date: Scenario.date("2026-01-10"),
                covers: [.transaction(covered)]), by: s.bob),
            s.command(.markGroupExpenseSettled(expenseID: inTrip), by: s.bob),
        ])

        func ids(_ viewer: Viewer, settled: Bool?, people: [PersonID] = [], on ledger: Ledger) async throws -> Set<TransactionID> {
            var query = TransactionQuery(visibleTo: viewer)
            query.settled = settled
            query.people = people
            query.limit = 1
            let pages = try await TallyTestSupport.allPages(of: query, cursor: \.after, next: \.next) { query in try await ledger.transactions(query) }
            return Set(pages.flatMap(\.rows).map(\.transaction.transactionID))
        }
        #expect(try await ids(.audit, settled: false, on: ledger) == [open], "pending: Bob's share of it is not covered")
        #expect(try await ids(.audit, settled: true, on: ledger) == [covered], "settled: shared, every share covered; personal ones are neither")
        #expect(try await ids(.member(s.bob), settled: false, people: [s.bob], on: ledger) == [open])
        #expect(try await ids(.audit, settled: nil, on: ledger) == [covered, open, bobsOwn, alicesOwn])
        #expect(try await ids(.member(Scenario.carol), settled: true, on: ledger).isEmpty, "G7: Carol is in no household entry")
        #expect(try await ids(.member(s.bob), settled: nil, on: ledger) == [covered, open, bobsOwn], "G7: not Alice's personal expense")
        var totals = TransactionQuery(visibleTo: .audit)
        totals.settled = true
        await #expect(throws: LedgerError.self, "day totals do not read the debt read model") { try await ledger.dayTotals(totals) }

        #expect(await ledger.groupExpenses(involving: s.bob, visibleTo: .audit).map(\.expenseID) == [inTrip, inFlat], "across groups, oldest first; not an expense without Bob")
        #expect(await ledger.groupExpenses(involving: s.bob, visibleTo: .audit).map(\.groupID) == [trip, flat])
        #expect(await ledger.groupExpenses(involving: s.bob, settled: true, visibleTo: .audit).map(\.expenseID) == [inTrip])
        #expect(await ledger.groupExpenses(involving: s.bob, settled: false, visibleTo: .audit).map(\.expenseID) == [inFlat])
        #expect(await ledger.groupExpenses(involving: s.bob, visibleTo: .member(s.alice)).map(\.expenseID) == [inFlat], "G7: Alice is not in the Trip")
        #expect(await ledger.groupExpenses(involving: Scenario.carol, visibleTo: .member(Scenario.carol)).map(\.expenseID) == [inTrip, inFlat, withoutBob])

        _ = try await ledger.rebuildReadSide()
        #expect(try await ids(.audit, settled: false, on: ledger) == [open], "a rebuilt store, the same filter")
        try await ledger.close()
    }
}
