import Foundation
@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// G2 (revised): a total over several wallets or currencies converts every amount exactly and
/// rounds the exact sum once, half to even; a part shown beside it is rounded on its own.
@Suite("G2: converted totals round once")
struct ConversionRoundingTests {
    @Test("G2: two wallets worth CHF 0.005 each make a base total of CHF 0.01 in balances and in net worth (a sum of rounded parts says 0.00); each part is rounded on its own to 0.00")
    func totalsRoundTheExactSumOnce() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("g2")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // base CHF; Joint (CHF 1000.00) and a EUR card
        let usd = try Currency("USD")
        let dollars: WalletID = s.ids.next()
        let euros: WalletID = s.ids.next()
        let opened = Scenario.date("2026-01-01")
        try await test.ledger.execute([
            s.command(.openWallet(walletID: euros, name: "Euro cash", kind: .cash, openingBalance: Scenario.eur(1), openedOn: opened, owner: nil)),
            s.command(.openWallet(walletID: dollars, name: "Dollar cash", kind: .cash, openingBalance: Money(minorUnits: 1, currency: usd), openedOn: opened, owner: nil)),
            // 1 EUR = 0.5 CHF and 1 USD = 0.5 CHF: one cent of each is half a Rappen.
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate(base: .eur, quote: .chf, scaledRate: ExchangeRate.scale / 2), asOf: opened)),
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate(base: usd, quote: .chf, scaledRate: ExchangeRate.scale / 2), asOf: opened)),
        ])
        let models = await test.ledger.readModels
        // The EUR card (EUR 0.00) adds nothing; the Joint account CHF 1000.00.
        let totals = try models.wallets.totals()
        #expect(totals.baseTotal == Scenario.chf(100_001), "1000.00 + exact(0.005 + 0.005) = 1000.01, rounded once")
        let point = try #require(try models.netWorth.series().last)
        #expect(point.value == Scenario.chf(100_001))
        let parts = point.contributions.filter { $0.walletID == euros || $0.walletID == dollars }.compactMap(\.converted)
        #expect(parts == [Scenario.chf(0), Scenario.chf(0)], "each part alone rounds half to even to 0.00 (it may differ from the total by a unit)")
        try await test.ledger.close()
    }

    @Test("G2: two EUR 0.01 expenses worth CHF 0.005 each make a budget spending of CHF 0.01 per category, bucket and week (a sum of rounded parts says 0.00); remaining comes from the exact sums")
    func budgetReportRoundsTheExactSumOnce() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("g2-budget")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // base CHF; Joint (CHF) and a EUR card owned by Alice
        let opened = Scenario.date("2026-01-01")
        func euroExpense(_ day: String) -> TransactionEntry {
            TransactionEntry(kind: .expense, amount: Scenario.eur(1), walletID: s.euroCard, categoryID: s.groceries,
                             date: Scenario.date(day), payer: s.alice)
        }
        try await test.ledger.execute([
            // 1 EUR = 0.5 CHF: one euro cent is half a Rappen.
            s.command(.setExchangeRate(exchangeRate: try ExchangeRate(base: .eur, quote: .chf, scaledRate: ExchangeRate.scale / 2), asOf: opened)),
            s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(10_000), fromPeriod: opened)),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: euroExpense("2026-01-06"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: euroExpense("2026-01-07"))),
        ])
        let budgets = await test.ledger.readModels.budgets
        let report = try budgets.budget(for: budgets.period(containing: Scenario.date("2026-01-06")))
        let groceries = try #require(report.categories.first { $0.categoryID == s.groceries })
        #expect(groceries.spent == Scenario.chf(1), "exact 0.005 + 0.005 = 0.01, rounded once")
        #expect(groceries.remaining == Scenario.chf(9_999))
        #expect(report.groups.first { $0.budgetType == .needs }?.spent == Scenario.chf(1))
        let week = try #require(report.weeklyAllowances.first { $0.budgetType == .needs && $0.from <= Scenario.date("2026-01-06") && Scenario.date("2026-01-06") <= $0.to })
        #expect(week.spent == Scenario.chf(1), "both expenses fall in the week of Monday 2026-01-05")
        #expect(report.totalAllocated == Scenario.chf(10_000) && report.unallocated == Scenario.chf(-10_000))
        try await test.ledger.close()
    }
}
