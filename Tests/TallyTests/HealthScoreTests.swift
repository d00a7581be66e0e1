import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// The financial health score (Swiff 4.3.3): `ledger.healthScore(on:visibleTo:)`, its
/// components and formula (Docs/Planning.md "Health score").
@Suite("Health score")
struct HealthScoreTests {
    @Test("4.3.3, R4: income 6000 a month, expenses 4500, 4500 and 6500: savings rate 13.89% gives 17 points, two of three months in the black 16, the last month at 126% of the average 12; score 60 of 100")
    func scoreFromThreeMonths() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("health-score", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        for (month, expense) in [("2026-01", Int64(450_000)), ("2026-02", 450_000), ("2026-03", 650_000)] {
            for (kind, amount, category) in [(TransactionKind.income, Int64(600_000), s.salary), (.expense, expense, s.groceries)] {
                try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
                    kind: kind, amount: Scenario.chf(amount), walletID: s.joint, categoryID: category, date: Scenario.date("\(month)-15")))))
            }
        }
        let health = try await test.ledger.healthScore(on: Scenario.date("2026-04-10"), visibleTo: .audit)
        // Savings rate (18000 - 15500) / 18000 = 13.89%: 1389 x 25 / 2000 = 17.
        #expect(health.savingsRateBasisPoints == 1_389 && health.savingsRatePoints == 17)
        #expect(health.monthsInTheBlackPoints == 16, "25 x 2 / 3")
        // Average 5166.67 (516667); March 6500 is 125.8% of it: 25 x (3 x 516667 - 2 x 650000) / 516667 = 12.
        #expect(health.spendingTrendPoints == 12)
        #expect(health.score == 60, "(17 + 16 + 12) x 100 / 75 = 60")
        // A savings rate far below -100% (income 0.01, expenses near the amount bound) scores 0, never traps.
        for (kind, amount, category) in [(TransactionKind.income, Int64(1), s.salary), (.expense, LedgerLimits.amountMinorUnitsMax, s.groceries)] {
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
                kind: kind, amount: Scenario.chf(amount), walletID: s.joint, categoryID: category, date: Scenario.date("2026-05-15"), payer: s.bob))))
        }
        let extreme = try await test.ledger.healthScore(on: Scenario.date("2026-06-10"), visibleTo: .member(s.bob))
        #expect(extreme.savingsRatePoints == 0 && (extreme.savingsRateBasisPoints ?? 0) < -10_000)
        let empty = try await test.ledger.healthScore(on: Scenario.date("2026-01-10"), visibleTo: .member(s.bob))
        #expect(empty.savingsRateBasisPoints == nil && empty.savingsRatePoints == 0 && empty.spendingTrendPoints == 25)
    }
}
