@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// S4: an income-based split ratio, read from the budget read model's date index (the period's
/// transactions, one key range), not from a sum the validation state kept per day.
@Suite("Income-based split ratio")
struct IncomeBasedRatioTests {
    static func income(_ s: Scenario, _ units: Int64, _ payer: PersonID, on date: String, wallet: WalletID? = nil) -> TransactionEntry {
        var entry = s.expense(units, payer: payer, category: s.salary)
        entry.kind = .income
        entry.date = Scenario.date(date)
        if let wallet {
            entry.walletID = wallet
            entry.amount = Scenario.eur(units)
        }
        return entry
    }

    @Test("S4: an income-based ratio weighs each member's live income in the base currency in the last closed period; deleted income, income in another currency and income after the period do not count")
    func incomeBasedRatioReadsTheClosedPeriod() async throws {
        var (test, s) = try await EditingTests.household()  // monthly from the 1st: January is open
        let deleted: TransactionID = s.ids.next()
        try await test.ledger.execute([
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 600_000, Scenario.alice, on: "2026-01-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 400_000, Scenario.bob, on: "2026-01-12"))),
            s.command(.recordTransaction(transactionID: deleted, entry: Self.income(s, 900_000, Scenario.bob, on: "2026-01-15"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 500_000, Scenario.alice, on: "2026-01-20", wallet: s.euroCard))),
        ])
        try await test.ledger.execute(s.command(.deleteTransaction(transactionID: deleted)))
        s.advance(to: "2026-02-06")  // the next command closes January first (B6)
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 5_000_000, Scenario.bob, on: "2026-02-05"))))
        #expect(await test.ledger.state.periods.lastClosed?.periodEnd == Scenario.date("2026-01-31"))
        let manual = [s.ratio(Scenario.alice, 5_000), s.ratio(Scenario.bob, 5_000)]
        try await test.ledger.execute(s.command(.setSplitRatio(mode: .incomeBased, ratios: manual)))
        let set = try #require(await test.ledger.state.splitRatio)
        let byPerson = Dictionary(uniqueKeysWithValues: set.ratios.map { ($0.person, $0.ratio.basisPoints) })
        #expect(byPerson == [Scenario.alice: 6_000, Scenario.bob: 4_000], "January's CHF incomes only: 6,000 and 4,000")

        // Without income in the closed period, the manual ratios given stand.
        s.advance(to: "2026-03-02")  // the ratio's command closes February first: Bob's income only
        let skewed = [s.ratio(Scenario.alice, 3_000), s.ratio(Scenario.bob, 7_000)]
        try await test.ledger.execute(s.command(.setSplitRatio(mode: .incomeBased, ratios: skewed)))
        let fallback = try #require(await test.ledger.state.splitRatio)
        #expect(await test.ledger.state.periods.lastClosed?.periodEnd == Scenario.date("2026-02-28"))
        #expect(fallback.ratios.map(\.ratio.basisPoints) == skewed.map(\.ratio.basisPoints),
                "Alice would get under 1% of February's income, so the manual ratios stand")
    }
}
