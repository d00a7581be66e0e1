import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Swiff 1.2.5 "delete a person": out of every group (a group left with one person is deleted),
/// optionally their open shared transactions deleted (T3), then forgotten (P3), which also takes
/// them out of shared subscriptions; refused whole when a group balance is open (S8).
@Suite("Deleting a person (Swiff 1.2.5, S8, T3, P3)")
struct DeletePersonTests {
    static func household(_ label: String) async throws -> (TestLedger, Scenario, carol: PersonID, trip: GroupID, pair: GroupID, split: TransactionID) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let carol: PersonID = s.ids.next()
        let trip: GroupID = s.ids.next()
        let pair: GroupID = s.ids.next()
        let split: TransactionID = s.ids.next()
        var picnic = s.expense(6_000)
        picnic.splitWith = .equal([s.alice, carol])
        try await test.ledger.execute([
            s.command(.addPerson(personID: carol, name: "Carol")),
            s.command(.createGroup(groupID: trip, name: "Trip", members: [s.alice, s.bob, carol])),
            s.command(.createGroup(groupID: pair, name: "Pottery", members: [s.alice, carol])),
            s.command(.recordTransaction(transactionID: split, entry: picnic)),
        ])
        return (test, s, carol, trip, pair, split)
    }

    @Test("Swiff 1.2.5: the person leaves every group, a two-person group is deleted, their open shared transaction is deleted, and they are forgotten, in one command")
    func deleteEverywhere() async throws {
        var (test, s, carol, trip, pair, split) = try await Self.household("delete-person")
        try await test.ledger.execute(s.command(.deletePerson(personID: carol, deleteOpenTransactions: true)))
        let groups = try await test.ledger.groups(visibleTo: .audit)
        #expect(groups.map(\.groupID) == [trip], "the pottery pair is deleted")
        #expect(groups.first?.memberCount == 2, "Carol left the trip")
        let row = try await test.ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.first { $0.transaction.transactionID == split }
        #expect(row == nil, "the picnic split with her is deleted (T3)")
        #expect(try await test.ledger.debts(visibleTo: .audit).isEmpty)
        await expectRejection(test.ledger, s.command(.addPerson(personID: carol, name: "Carol")), code: "personForgotten", rule: "P3")
        _ = pair
    }

    @Test("S8: an open balance in a group refuses the whole command, naming the group; without deleteOpenTransactions the transactions stay; only the admin deletes")
    func refusals() async throws {
        var (test, s, carol, trip, _, split) = try await Self.household("delete-person-refused")
        try await test.ledger.execute(s.command(.recordGroupExpense(
            expenseID: s.ids.next(), groupID: trip, paidBy: s.alice, amount: Scenario.chf(9_000), date: Scenario.date("2026-01-07"),
            split: .equal([s.alice, s.bob, carol]))))
        let before = await test.ledger.lastSequenceNumber
        await expectRejection(test.ledger, s.command(.deletePerson(personID: carol)), code: "groupBalanceNotSettled", rule: "S8")
        #expect(await test.ledger.lastSequenceNumber == before, "nothing written")
        await expectRejection(test.ledger, s.command(.deletePerson(personID: carol), by: s.bob), code: "adminOnly", rule: "H5")

        var (other, t, dana, _, _, picnic) = try await Self.household("delete-person-keep")
        try await other.ledger.execute(t.command(.deletePerson(personID: dana)))
        let kept = try await other.ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.first { $0.transaction.transactionID == picnic }
        #expect(kept?.transaction.isLive == true, "without deleteOpenTransactions the transaction stays")
        _ = split
    }
}
