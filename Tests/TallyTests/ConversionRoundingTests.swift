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
            s.command(.setExchangeRate(try ExchangeRate(base: .eur, quote: .chf, scaledRate: ExchangeRate.scale / 2), asOf: opened)),
            s.command(.setExchangeRate(try ExchangeRate(base: usd, quote: .chf, scaledRate: ExchangeRate.scale / 2), asOf: opened)),
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
}
