import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

@Suite("DebtProjection")
struct DebtProjectionTests {
    typealias S = Scenario

    @Test("S3/S5: CHF 100.01 at 50/50 paid by A, stored shares A 50.01 B 50.00: B owes A 50.00")
    func fiftyFiftyOddCent() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.expense(10_001, wallet: bank, on: "2026-01-05", payer: S.alice, shares: [(S.alice, 5_001), (S.bob, 5_000)])
        let debts = s.fold(DebtProjection.self)
        #expect(try debts.owed(by: S.bob, to: S.alice, in: .chf) == chf(5_000))
        #expect(try debts.owed(by: S.alice, to: S.bob, in: .chf) == chf(-5_000))
        let balance = try #require(try debts.householdBalances().first)
        #expect(balance.debtor == S.bob && balance.creditor == S.alice && balance.amount == chf(5_000))
        #expect(balance.openItems.count == 1)
    }

    @Test("S2: 60/40 on CHF 100 paid by B: A owes B 60.00")
    func sixtyForty() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.expense(10_000, wallet: bank, on: "2026-01-05", payer: S.bob, shares: [(S.alice, 6_000), (S.bob, 4_000)])
        #expect(try s.fold(DebtProjection.self).owed(by: S.alice, to: S.bob, in: .chf) == chf(6_000))
    }

    @Test("T2: personal -> shared creates the debt; shared -> personal removes it; a ratio change re-splits (BUG-001)")
    func editsChangeSharing() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        let spend = s.expense(8_000, wallet: bank, on: "2026-01-05", payer: S.alice)
        #expect(try s.fold(DebtProjection.self).householdBalances().isEmpty)
        s.edit(spend, S.details(.expense, 8_000, .chf, wallet: bank, category: S.groceries, on: "2026-01-05",
                                payer: S.alice, shares: [(S.alice, 4_000), (S.bob, 4_000)]))
        #expect(try s.fold(DebtProjection.self).owed(by: S.bob, to: S.alice, in: .chf) == chf(4_000))
        s.edit(spend, S.details(.expense, 8_000, .chf, wallet: bank, category: S.groceries, on: "2026-01-05",
                                payer: S.alice, shares: [(S.alice, 2_000), (S.bob, 6_000)]))
        #expect(try s.fold(DebtProjection.self).owed(by: S.bob, to: S.alice, in: .chf) == chf(6_000))
        s.edit(spend, S.details(.expense, 8_000, .chf, wallet: bank, category: S.groceries, on: "2026-01-05",
                                payer: S.alice))
        #expect(try s.fold(DebtProjection.self).householdBalances().isEmpty)
    }

    @Test("T3: a deleted shared transaction drops out of the debt and its items")
    func deletedDropsOut() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        let spend = s.expense(1_000, wallet: bank, on: "2026-01-05", payer: S.alice, shares: [(S.alice, 500), (S.bob, 500)])
        s.delete(spend)
        #expect(try s.fold(DebtProjection.self).householdBalances().isEmpty)
    }

    @Test("S6: a settlement of selected items settles exactly those; the others stay open")
    func settleSelectedItems() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        let first = s.expense(2_000, wallet: bank, on: "2026-01-05", payer: S.alice, shares: [(S.alice, 1_000), (S.bob, 1_000)])
        let second = s.expense(600, wallet: bank, on: "2026-01-06", payer: S.alice, shares: [(S.alice, 300), (S.bob, 300)])
        let settlementID: SettlementID = s.id()
        s.add(.settlementRecorded(SettlementRecorded(
            settlementID: settlementID, from: S.bob, to: S.alice, amount: chf(1_000), date: d("2026-01-10"),
            covers: [.transaction(first)], isAdvance: false, groupID: nil)))
        let debts = s.fold(DebtProjection.self)
        let balance = try #require(try debts.householdBalances().first)
        #expect(balance.aOwesB == chf(-300))
        #expect(balance.openItems.map(\.source) == [.transaction(second)])
        #expect(debts.householdItems().first { $0.source == .transaction(first) }?.settledBy == settlementID)
    }

    @Test("S6: a settlement without covers settles everything open, oldest first; an advance leaves a credit")
    func settleEverythingAndAdvance() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.expense(2_000, wallet: bank, on: "2026-01-05", payer: S.alice, shares: [(S.alice, 1_000), (S.bob, 1_000)])
        s.expense(600, wallet: bank, on: "2026-01-06", payer: S.alice, shares: [(S.alice, 300), (S.bob, 300)])
        s.add(.settlementRecorded(SettlementRecorded(
            settlementID: s.id(), from: S.bob, to: S.alice, amount: chf(1_000), date: d("2026-01-10"),
            covers: nil, isAdvance: false, groupID: nil)))
        var debts = s.fold(DebtProjection.self)
        #expect(try debts.householdBalances().first?.openItems.count == 1)
        #expect(try debts.owed(by: S.bob, to: S.alice, in: .chf) == chf(300))
        s.add(.settlementRecorded(SettlementRecorded(
            settlementID: s.id(), from: S.bob, to: S.alice, amount: chf(500), date: d("2026-01-11"),
            covers: nil, isAdvance: true, groupID: nil)))
        debts = s.fold(DebtProjection.self)
        #expect(try debts.owed(by: S.alice, to: S.bob, in: .chf) == chf(200))
        #expect(try debts.householdBalances().first?.openItems.isEmpty == true)
    }

    @Test("S7/S8: group balances are paid - owed and sum to zero; the plan needs at most n-1 transfers")
    func groupBalancesAndPlan() throws {
        var s = Scenario()
        let groupID: GroupID = s.id()
        s.add(.groupCreated(GroupCreated(groupID: groupID, name: "Trip", members: [S.alice, S.bob, S.carol, S.dave])))
        func expense(_ paidBy: PersonID, _ amount: Int64, _ owed: [(PersonID, Int64)]) -> EventPayload {
            .groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: s.id(), groupID: groupID, paidBy: paidBy, amount: chf(amount), date: d("2026-02-01"),
                note: nil, split: .equal(owed.map(\.0)), owed: owed.map { PersonShare(person: $0.0, amount: chf($0.1)) }))
        }
        // 100.00 equally among 3 paid by Alice: 33.34 (Alice), 33.33, 33.33.
        s.add(expense(S.alice, 10_000, [(S.alice, 3_334), (S.bob, 3_333), (S.carol, 3_333)]))
        // 2:1:1 of 40.00 paid by Dave.
        s.add(expense(S.dave, 4_000, [(S.alice, 2_000), (S.bob, 1_000), (S.dave, 1_000)]))
        let debts = s.fold(DebtProjection.self)
        let balances = try #require(try debts.groupBalances(groupID)[.chf])
        let expected = [S.alice: chf(4_666), S.bob: chf(-4_333), S.carol: chf(-3_333), S.dave: chf(3_000)]
        #expect(balances.map(\.person) == expected.keys.sorted(), "one balance per member, in person order")
        #expect(Dictionary(uniqueKeysWithValues: balances.map { ($0.person, $0.balance) }) == expected)
        #expect(balances.reduce(0) { $0 + $1.balance.minorUnits } == 0)
        let plan = try #require(try debts.settlementPlan(groupID)[.chf])
        // Largest creditor Alice 46.66, largest debtor Bob 43.33 -> Bob pays Alice 43.33; then
        // Carol (33.33) pays Alice 3.33 ... Dave 30.00 remains: Carol pays Dave 30.00.
        #expect(plan == [
            PlannedTransfer(from: S.bob, to: S.alice, amount: chf(4_333)),
            PlannedTransfer(from: S.carol, to: S.dave, amount: chf(3_000)),
            PlannedTransfer(from: S.carol, to: S.alice, amount: chf(333)),
        ])
        #expect(plan.count <= 3)
    }

    @Test("S8: a group settlement moves both balances and keeps the sum at zero")
    func groupSettlement() throws {
        var s = Scenario()
        let groupID: GroupID = s.id()
        s.add(.groupCreated(GroupCreated(groupID: groupID, name: "Flat", members: [S.alice, S.bob])))
        s.add(.groupExpenseRecorded(GroupExpenseRecorded(
            expenseID: s.id(), groupID: groupID, paidBy: S.alice, amount: chf(1_001), date: d("2026-02-01"), note: nil,
            split: .equal([S.alice, S.bob]), owed: [PersonShare(person: S.alice, amount: chf(501)), PersonShare(person: S.bob, amount: chf(500))])))
        s.add(.settlementRecorded(SettlementRecorded(
            settlementID: s.id(), from: S.bob, to: S.alice, amount: chf(500), date: d("2026-02-02"), covers: nil,
            isAdvance: false, groupID: groupID)))
        let balances = try #require(try s.fold(DebtProjection.self).groupBalances(groupID)[.chf])
        #expect(balances.map(\.balance) == [chf(0), chf(0)])
        #expect(try s.fold(DebtProjection.self).settlementPlan(groupID)[.chf] == [])
    }

    @Test("S3: shares that do not sum to the amount are a problem, not a debt")
    func badSharesAreProblems() throws {
        var s = Scenario()
        let bank = s.wallet("Bank")
        s.expense(1_000, wallet: bank, on: "2026-01-05", payer: S.alice, shares: [(S.alice, 500), (S.bob, 499)])
        let debts = s.fold(DebtProjection.self)
        #expect(debts.problems.map(\.rule) == ["S3"])
        #expect(try debts.householdBalances().isEmpty)
    }

    @Test("S7, S8: the fold follows GroupExpenseEdited, Deleted, Restored and SettledMarked; balances sum to zero; the state round-trips; an unknown expense is a problem")
    func groupExpenseChanges() throws {
        var s = Scenario()
        let groupID: GroupID = s.id()
        let expenseID: GroupExpenseID = s.id()
        s.add(.groupCreated(GroupCreated(groupID: groupID, name: "Trip", members: [S.alice, S.bob, S.carol])))
        s.add(.groupExpenseRecorded(GroupExpenseRecorded(
            expenseID: expenseID, groupID: groupID, paidBy: S.alice, amount: chf(9_000), date: d("2026-02-01"), note: nil,
            split: .equal([S.alice, S.bob, S.carol]),
            owed: [PersonShare(person: S.alice, amount: chf(3_000)), PersonShare(person: S.bob, amount: chf(3_000)),
                   PersonShare(person: S.carol, amount: chf(3_000))])))
        s.add(.groupExpenseEdited(GroupExpenseEdited(expense: GroupExpenseRecorded(
            expenseID: expenseID, groupID: groupID, paidBy: S.bob, amount: chf(10_001), date: d("2026-02-02"), note: nil,
            split: .equal([S.alice, S.bob, S.carol]),
            owed: [PersonShare(person: S.alice, amount: chf(3_334)), PersonShare(person: S.bob, amount: chf(3_334)),
                   PersonShare(person: S.carol, amount: chf(3_333))],
            categoryID: S.groceries, title: PersonalText("Dinner", owner: S.bob)))))
        var debts = s.fold(DebtProjection.self)
        var balances = try #require(try debts.groupBalances(groupID)[.chf])
        let edited = [S.alice: chf(-3_334), S.bob: chf(6_667), S.carol: chf(-3_333)]
        #expect(Dictionary(uniqueKeysWithValues: balances.map { ($0.person, $0.balance) }) == edited)
        #expect(balances.reduce(0) { $0 + $1.balance.minorUnits } == 0)
        #expect(debts.groupExpenses(in: groupID).first?.title?.text == "Dinner")
        #expect(try Projections(encodedState: s.readModels.encodedState()).debts == debts)

        s.add(.groupExpenseSettledMarked(GroupExpenseSettledMarked(expenseID: expenseID, isSettled: true)))
        debts = s.fold(DebtProjection.self)
        #expect(debts.groupExpenses(in: groupID).map(\.isSettled) == [true])
        #expect(try debts.groupBalances(groupID)[.chf]?.map(\.balance) == balances.map(\.balance), "a mark changes no balance")

        s.add(.groupExpenseDeleted(GroupExpenseDeleted(expenseID: expenseID)))
        debts = s.fold(DebtProjection.self)
        balances = try #require(try debts.groupBalances(groupID)[.chf] ?? [])
        #expect(balances.allSatisfy { $0.balance.isZero })
        #expect(debts.groupExpenses(in: groupID).isEmpty)
        #expect(try debts.settlementPlan(groupID)[.chf] ?? [] == [])

        s.add(.groupExpenseRestored(GroupExpenseRestored(expenseID: expenseID)))
        s.add(.groupExpenseDeleted(GroupExpenseDeleted(expenseID: s.id())))
        debts = s.fold(DebtProjection.self)
        let restored = try #require(try debts.groupBalances(groupID)[.chf])
        #expect(Dictionary(uniqueKeysWithValues: restored.map { ($0.person, $0.balance) }) == edited)
        #expect(debts.problems.map(\.rule) == ["S7"], "the deletion of an unknown expense is reported")
        #expect(try Projections(encodedState: s.readModels.encodedState()).debts == debts)
    }
}
