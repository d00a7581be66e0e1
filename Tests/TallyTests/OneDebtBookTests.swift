@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// The one debt book (the debt read model, ``DebtProjection``), which validation reads for H4,
/// S6 and S8: its running sums (``DebtNets``, ``GroupNets``) against a scan of the history.
@Suite("One debt book")
struct OneDebtBookTests {
    static let people = [Scenario.alice, Scenario.bob, Scenario.carol, Scenario.dave]

    @Test(
        "S7: the group balances validation reads and the debt read model's reports are one value, equal to the scan of the group's history, all along 3,000 random group events (edits, deletions, restorations, settlements, members added and removed); the checkpoint round-trips them",
        arguments: [UInt64(11), 12, 13])
    func validationAgreesWithTheReadModel(seed: UInt64) throws {
        var s = Scenario()
        var history = RandomGroupHistory(seed: seed)
        history.append(3_000, to: &s)
        let events = s.events
        var state = LedgerState()
        for (index, event) in events.enumerated() {
            state.apply(event)
            guard index % 500 == 0 || index == events.count - 1 else { continue }
            try Self.expectAgreement(state.debts, GroupBalanceScan.balances(events[...index]), groups: history.groups, "seed \(seed), event \(index)")
        }
        #expect(try state.checkpointRoundTrip() == state, "seed \(seed): the group totals round-trip")
    }

    /// Every (group, currency, person) of the scan has the scan's balance as validation reads it
    /// and in the read model's report, and each person's open group balances are the scan's
    /// non-zero ones.
    static func expectAgreement(
        _ debts: DebtProjection, _ scan: [GroupID: [Currency: [PersonID: GroupBalanceScan.Totals]]],
        groups: [GroupID], _ context: String
    ) throws {
        var open: [PersonID: [(group: GroupID, balance: Money)]] = [:]
        for group in groups {
            let projected = try debts.groupBalances(group)
            for (currency, byPerson) in (scan[group] ?? [:]).sorted(by: { $0.key < $1.key }) {
                for (person, totals) in byPerson {
                    let validated = debts.groupBalance(group, person: person, currency: currency)
                    #expect(Int128(validated) == totals.balance, "\(context): validation's balance of \(person) in \(group), \(currency)")
                    #expect(projected[currency]?.first { $0.person == person }?.balance.minorUnits == validated,
                            "\(context): the read model's balance of \(person) in \(group), \(currency)")
                    if totals.balance != 0 {
                        open[person, default: []].append((group, Money(minorUnits: validated, currency: currency)))
                    }
                }
            }
        }
        for person in people {
            let expected = (open[person] ?? []).sorted { ($0.group, $0.balance.currency) < ($1.group, $1.balance.currency) }
            let found = debts.openGroupBalances(of: person)
            #expect(found.map(\.group) == expected.map(\.group) && found.map(\.balance) == expected.map(\.balance),
                    "\(context): open group balances of \(person) (H4, S8)")
        }
    }

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
