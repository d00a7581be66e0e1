@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// The one debt book (the debt read model, ``DebtProjection``), which validation reads for H4,
/// S6 and S8 (its running sums against a scan of the history: `DebtProjectionTests`
/// "groupBalancesEqualTheScan").
@Suite("One debt book")
struct OneDebtBookTests {

    @Test("S7, G1: validation keeps group sums past Int64.max exactly (no wrapping) and reads them saturated at Int64.max, so H4, S6 and S8 see the largest amount, never a wrapped one")
    func groupSumsPastInt64AreExact() throws {
        var s = Scenario()
        let group: GroupID = s.id()
        s.add(.groupCreated(GroupCreated(groupID: group, name: "Large", members: [Scenario.alice, Scenario.bob])))
        let part = [PersonShare(person: Scenario.bob, amount: Scenario.chf(.max))]
        for _ in 0..<2 {
            s.add(.groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: s.id(), groupID: group, paidBy: Scenario.alice, amount: Scenario.chf(.max),
                date: Scenario.date("2026-02-01"), note: nil, split: .exact(part), owed: part)))
        }
        var state = LedgerState()
        for event in s.events { state.apply(event) }
        #expect(state.debts.groupNets.totals(of: Scenario.alice, in: group, currency: .chf).balance == 2 * Int128(Int64.max))
        #expect(state.debts.groupNets.totals(of: Scenario.bob, in: group, currency: .chf).balance == -2 * Int128(Int64.max))
        #expect(state.debts.groupBalance(group, person: Scenario.alice, currency: .chf) == .max)
        #expect(state.debts.groupBalance(group, person: Scenario.bob, currency: .chf) == -.max, "saturated symmetrically: negating it never traps")
        #expect(state.debts.openGroupBalances(of: Scenario.alice).map(\.balance) == [Scenario.chf(.max)])
        #expect(state.debts.openGroupBalances(of: Scenario.bob).map(\.balance) == [Scenario.chf(-.max)])
        #expect(try state.checkpointRoundTrip() == state)
    }
}
