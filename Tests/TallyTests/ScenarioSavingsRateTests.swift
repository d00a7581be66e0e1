import Foundation
@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Scenarios by savings rate (Drishti E9-S1, E9-S3, E9-S6; R3, R4): `saveScenario` with
/// `savingsRateDeltaBasisPoints`, the "+5% savings rate" preset, and the guard rails of
/// ``ScenarioSavingsRate`` (Docs/Planning.md "Scenarios (R3)").
@Suite("Scenario savings rate")
struct ScenarioSavingsRateTests {
    static let months = Scenario.date("2026-01-01")...Scenario.date("2026-03-31")

    static func rate(_ delta: Int64, income: Int64 = 600_000, expense: Int64 = 450_000, incomeDelta: Int64 = 0, expenseDelta: Int64 = 0) throws -> ScenarioSavingsRate {
        try ScenarioSavingsRate(deltaBasisPoints: delta, referenceMonths: months, referenceIncome: Scenario.chf(income),
                                referenceExpense: Scenario.chf(expense), incomeDelta: Scenario.chf(incomeDelta), expenseDelta: Scenario.chf(expenseDelta))
    }

    @Test("E9-S1, R4: +5% of savings rate on CHF 6000 income and CHF 4500 expenses saves CHF 300 more a month: 25% -> 30%; with CHF 1000 more income it is 5% of CHF 7000")
    func deltaIsAShareOfIncome() throws {
        let plain = try Self.rate(500)
        #expect(plain.monthlyAmount == Scenario.chf(30_000) && !plain.isLimited)
        #expect(plain.baselineRateBasisPoints == 2_500 && plain.scenarioRateBasisPoints == 3_000)
        let raised = try Self.rate(500, incomeDelta: 100_000)
        #expect(raised.monthlyAmount == Scenario.chf(35_000))
    }

    @Test("E9-S6 guard rails: expenses never below zero (the rate stops at 100%), a negative delta never below a 0% rate, nothing without income")
    func guardRails() throws {
        let high = try Self.rate(20_000)
        #expect(high.monthlyAmount == Scenario.chf(450_000) && high.isLimited && high.scenarioRateBasisPoints == 10_000)
        let low = try Self.rate(-8_000)
        #expect(low.monthlyAmount == Scenario.chf(-150_000) && low.isLimited && low.scenarioRateBasisPoints == 0)
        let already = try Self.rate(-500, income: 400_000, expense: 450_000)
        #expect(already.monthlyAmount == Scenario.chf(0) && already.isLimited, "a rate below zero is not lowered further")
        let none = try Self.rate(500, income: 0, expense: 10_000)
        #expect(none.monthlyAmount == Scenario.chf(0) && none.isLimited && none.baselineRateBasisPoints == nil && none.scenarioRateBasisPoints == nil)
    }

    @Test("E9-S3, E9-S6, R3: the '+5% savings rate' preset projects k x 5% of the last three months' income over the baseline; a delta outside -8000...20000 is scenarioInvalid; a scenario without one has no savings-rate part")
    func presetThroughTheLedger() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("scenario-savings-rate", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        for month in ["2026-01", "2026-02", "2026-03"] {
            for (kind, amount, category) in [(TransactionKind.income, Int64(600_000), s.salary), (.expense, 450_000, s.groceries)] {
                try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
                    kind: kind, amount: Scenario.chf(amount), walletID: s.joint, categoryID: category, date: Scenario.date("\(month)-15")))))
            }
        }
        let preset = ScenarioSaved.savingsRatePreset(scenarioID: s.ids.next(), currency: .chf)
        #expect(preset.savingsRateDeltaBasisPoints == 500 && preset.name == "+5% savings rate")
        try await test.ledger.execute(s.command(.saveScenario(scenario: preset)))
        let series = try await test.ledger.scenarioSeries(preset.scenarioID, on: Scenario.date("2026-04-10"))
        let rate = try #require(series.savingsRate)
        #expect(rate.referenceMonths == Self.months && rate.referenceIncome == Scenario.chf(600_000) && rate.referenceExpense == Scenario.chf(450_000))
        #expect(rate.monthlyAmount == Scenario.chf(30_000) && rate.baselineRateBasisPoints == 2_500 && rate.scenarioRateBasisPoints == 3_000)
        #expect(series.points.enumerated().allSatisfy { $0.element.delta.minorUnits == Int64($0.offset + 1) * 30_000 }, "\(series.points.map(\.delta))")
        for delta: Int64 in [20_001, -8_001] {
            let wrong = s.command(.saveScenario(scenario: ScenarioSaved(
                scenarioID: s.ids.next(), name: "Too much", monthlyIncomeDelta: Scenario.chf(0), monthlyExpenseDelta: Scenario.chf(0), lumpSums: [],
                savingsRateDeltaBasisPoints: delta)))
            await expectRejection(test.ledger, wrong, code: "scenarioInvalid", rule: "R3")
        }
        let amounts = ScenarioSaved(scenarioID: s.ids.next(), name: "Amounts", monthlyIncomeDelta: Scenario.chf(10_000),
                                    monthlyExpenseDelta: Scenario.chf(0), lumpSums: [])
        try await test.ledger.execute(s.command(.saveScenario(scenario: amounts)))
        #expect(try await test.ledger.scenarioSeries(amounts.scenarioID, on: Scenario.date("2026-04-10")).savingsRate == nil)
    }
}
