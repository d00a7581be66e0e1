import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Spending spikes (Swiff 4.3.1, R6, G7): `AlertSettingsSet.spikePercent` and
/// `LedgerAlert.Kind.spendingSpike` (Docs/Planning.md "Alerts (R6)").
@Suite("Spending spikes")
struct SpendingSpikeTests {
    /// Groceries of CHF 300, 300 and 600 in January to March (average CHF 400) and Alice's
    /// restaurants of CHF 100 a month; in April, groceries of CHF 700 (Bob's own CHF 400 among
    /// them) and restaurants of CHF 120; a new category (transport) only in April.
    static func household(spikePercent: Int64?) async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make("spending-spikes", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let transport = CategoryPresets.expense[1].categoryID(in: s.household)
        let rows: [(String, Int64, CategoryID, PersonID)] = [
            ("2026-01-10", 30_000, s.groceries, s.alice), ("2026-02-10", 30_000, s.groceries, s.alice), ("2026-03-10", 60_000, s.groceries, s.alice),
            ("2026-01-12", 10_000, s.restaurants, s.alice), ("2026-02-12", 10_000, s.restaurants, s.alice), ("2026-03-12", 10_000, s.restaurants, s.alice),
            ("2026-04-02", 30_000, s.groceries, s.alice), ("2026-04-03", 40_000, s.groceries, s.bob), ("2026-04-04", 12_000, s.restaurants, s.alice),
            ("2026-04-05", 5_000, transport, s.alice),
        ]
        for (date, amount, category, payer) in rows {
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
                kind: .expense, amount: Scenario.chf(amount), walletID: s.joint, categoryID: category, date: Scenario.date(date), payer: payer)), by: payer))
        }
        let settings = AlertSettingsSet(budgetThresholds: [80, 100], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil, spikePercent: spikePercent)
        try await test.ledger.execute(s.command(.setAlertSettings(settings: settings)))
        return (test, s)
    }

    static func spikes(_ alerts: [LedgerAlert]) -> [LedgerAlert.Kind] {
        alerts.compactMap { if case .spendingSpike = $0.kind { $0.kind } else { nil } }
    }

    @Test("4.3.1, R6: at 150%, April's CHF 700 of groceries against CHF 400 a month is a spike; restaurants at 120% and a category new in April are not; the id names category, month and currency")
    func spikeAgainstTrailingAverage() async throws {
        let (test, s) = try await Self.household(spikePercent: 150)
        let alerts = try await test.ledger.alerts(on: Scenario.date("2026-04-20"), visibleTo: .audit)
        let month = try YearMonth(year: 2026, month: 4)
        #expect(Self.spikes(alerts) == [.spendingSpike(categoryID: s.groceries, month: month, spent: Scenario.chf(70_000), trailingAverage: Scenario.chf(40_000))])
        #expect(alerts.contains { $0.id == "spike/\(s.groceries)/2026-04/CHF" })
        let lower = try await Self.household(spikePercent: 120)
        let both = try await lower.0.ledger.alerts(on: Scenario.date("2026-04-20"), visibleTo: .audit)
        #expect(Self.spikes(both).count == 2, "restaurants at exactly 120% reach a 120% threshold")
    }

    @Test("4.3.1, G7: a member's spikes count only what they see: without Bob's own CHF 400, Alice's April groceries (CHF 300 against CHF 400) are no spike; Bob, with no groceries of his before April, has none either")
    func spikesAreForTheViewer() async throws {
        let (test, s) = try await Self.household(spikePercent: 150)
        #expect(Self.spikes(try await test.ledger.alerts(on: Scenario.date("2026-04-20"), visibleTo: .member(s.alice))).isEmpty)
        #expect(Self.spikes(try await test.ledger.alerts(on: Scenario.date("2026-04-20"), visibleTo: .member(s.bob))).isEmpty)
        #expect(Self.spikes(try await test.ledger.alerts(on: Scenario.date("2026-04-20"), visibleTo: .audit)).count == 1)
    }

    @Test("4.3.1, R6: spikes are off by default; a spike percent outside 101...10000 is alertSettingsInvalid")
    func offByDefaultAndBounded() async throws {
        var (test, s) = try await Self.household(spikePercent: nil)
        #expect(Self.spikes(try await test.ledger.alerts(on: Scenario.date("2026-04-20"), visibleTo: .audit)).isEmpty)
        for percent: Int64 in [100, 10_001] {
            let settings = AlertSettingsSet(budgetThresholds: [80], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil, spikePercent: percent)
            await expectRejection(test.ledger, s.command(.setAlertSettings(settings: settings)), code: "alertSettingsInvalid", rule: "R6")
        }
    }
}
