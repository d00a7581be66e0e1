@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Flow US-066 (B7): a bonus goes to the bonus pool, is allocated to budgets and goals within 7
/// days, and what is left then rolls into regular income.
@Suite("Bonus pool")
struct BonusPoolTests {
    /// The editing household (monthly from the 1st, January open, recorded Jan 5) with auto
    /// income from the salary category and a CHF 9,000 income of Alice's on Jan 10.
    static func household() async throws -> (TestLedger, Scenario, TransactionID) {
        var (test, s) = try await EditingTests.household()
        let bonus: TransactionID = s.ids.next()
        try await test.ledger.execute([
            s.command(.setIncomeSettings(mode: .auto, monthlyIncome: Scenario.chf(500_000), incomeCategoryIDs: [s.salary])),
            s.command(.recordTransaction(transactionID: bonus, entry: IncomeBasedRatioTests.income(s, 900_000, Scenario.alice, on: "2026-01-10"))),
        ])
        return (test, s, bonus)
    }

    @Test("US-066/B7: a marked bonus leaves the period's income for the pool; allocations add to a category's budget of the period or go to a goal, up to what is left")
    func markedBonusIsPooledAndAllocated() async throws {
        var (test, s, bonus) = try await Self.household()
        let goal: GoalID = s.ids.next()
        try await test.ledger.execute(s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Trip", target: Scenario.chf(1_000_000)))))
        try await test.ledger.execute(s.command(.markBonus(transactionID: bonus)))
        var january = try await test.ledger.budget(containing: Scenario.date("2026-01-15"))
        #expect(january.income.counted.isEmpty && january.income.source == .fallbackManual, "the bonus is not income")
        try await test.ledger.execute([
            s.command(.allocateBonus(transactionID: bonus, categoryID: s.restaurants, amount: Scenario.chf(300_000))),
            s.command(.allocateBonus(transactionID: bonus, goalID: goal, amount: Scenario.chf(200_000))),
        ])
        january = try await test.ledger.budget(containing: Scenario.date("2026-01-15"))
        #expect(january.categories.first { $0.categoryID == s.restaurants }?.allocated == Scenario.chf(300_000))
        let pool = await test.ledger.bonusPool(visibleTo: .member(Scenario.alice))
        #expect(pool.map(\.transactionID) == [bonus])
        #expect(pool.first?.allocated == Scenario.chf(500_000) && pool.first?.available == Scenario.chf(400_000))
        #expect(pool.first?.deadline == Scenario.date("2026-01-17"), "7 days after the income's date (Jan 10, marked Jan 5)")
        #expect(pool.first?.allocations.map(\.goalID) == [nil, goal])
        #expect(await test.ledger.bonusPool(visibleTo: .member(Scenario.bob)).isEmpty, "Alice's bonus is her income (G7)")
        await expectRejection(test.ledger, s.command(.allocateBonus(transactionID: bonus, categoryID: s.groceries, amount: Scenario.chf(400_001))),
                              code: "bonusOverAllocated", rule: "B7")
        await expectRejection(test.ledger, s.command(.markBonus(transactionID: bonus, isBonus: false)), code: "bonusOverAllocated", rule: "B7")
    }

    @Test("US-066/B7: what is left of a bonus 7 days on rolls into its period's income before the next command; it can then be neither allocated nor unmarked")
    func unallocatedBonusRollsInAfterSevenDays() async throws {
        var (test, s, bonus) = try await Self.household()
        try await test.ledger.execute(s.command(.markBonus(transactionID: bonus)))
        try await test.ledger.execute(s.command(.allocateBonus(transactionID: bonus, categoryID: s.restaurants, amount: Scenario.chf(100_000))))
        s.advance(to: "2026-01-17")  // the last day: nothing rolls in yet
        let lastDay = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(s.command(.allocateBonus(transactionID: bonus, categoryID: s.groceries, amount: Scenario.chf(100_000))))
        #expect(try await EditingTests.payloads(test.ledger, after: lastDay).map(\.tag) == [.bonusAllocated])
        s.advance(to: "2026-01-18")
        let after = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
        let payloads = try await EditingTests.payloads(test.ledger, after: after)
        #expect(payloads.first == .bonusRolledIn(BonusRolledIn(transactionID: bonus, amount: Scenario.chf(700_000))))
        let january = try await test.ledger.budget(containing: Scenario.date("2026-01-15"))
        #expect(january.income.counted == [bonus] && january.income.amount == Scenario.chf(700_000))
        #expect(await test.ledger.bonusPool(visibleTo: .audit).first?.available == Scenario.chf(0))
        await expectRejection(test.ledger, s.command(.allocateBonus(transactionID: bonus, categoryID: s.groceries, amount: Scenario.chf(1))),
                              code: "bonusRolledIn", rule: "B7")
    }

    @Test("US-066/B7: any income can be marked by hand (Mark as bonus) and unmarked while nothing is allocated; an unmarked income or an expense is not a bonus; undo takes a mark back")
    func manualMarkAndRejections() async throws {
        var (test, s, bonus) = try await Self.household()
        await expectRejection(test.ledger, s.command(.allocateBonus(transactionID: bonus, categoryID: s.groceries, amount: Scenario.chf(1))),
                              code: "notABonus", rule: "B7")
        await expectRejection(test.ledger, s.command(.markBonus(transactionID: bonus, isBonus: false)), code: "notABonus", rule: "B7")
        let expense: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: expense, entry: s.expense(5_000))))
        await expectRejection(test.ledger, s.command(.markBonus(transactionID: expense)), code: "notAnIncome", rule: "B7")
        let mark = s.command(.markBonus(transactionID: bonus))
        try await test.ledger.execute(mark)
        #expect(await test.ledger.bonusPool(visibleTo: .audit).count == 1)
        try await test.ledger.execute(s.command(.undo(targetCommandID: mark.commandID)))
        #expect(await test.ledger.bonusPool(visibleTo: .audit).isEmpty)
        try await test.ledger.execute(s.command(.markBonus(transactionID: bonus)))
        try await test.ledger.execute(s.command(.markBonus(transactionID: bonus, isBonus: false)))
        let january = try await test.ledger.budget(containing: Scenario.date("2026-01-15"))
        #expect(january.income.counted == [bonus], "regular income again")
    }
}
