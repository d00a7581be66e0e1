import Foundation
@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 31 (Swiff Phase 5 investments): the investment wallets' value, net contributions, gain
/// and allocation, in the base currency, for a viewer (G7; Docs/Projections.md "Investments").
@Suite("Investment portfolio", .serialized)
struct InvestmentTests {
    @Test("Swiff Phase 5 investments, W5, N3, G2, G7: value by balance points, net contributions from the opening balance, transfers and transactions, gain, allocation in basis points; a missing rate is a gap; a member sees the household's and their own")
    func portfolio() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("investments", durability: .synchronous)
        defer { test.directory.remove() }
        let ledger = test.ledger
        try await ledger.execute(s.setup())
        let (etf, crypto, fund): (WalletID, WalletID, WalletID) = (s.ids.next(), s.ids.next(), s.ids.next())
        let opened = Scenario.date("2026-01-01")
        try await ledger.execute([
            s.command(.openWallet(walletID: etf, name: "ETF", kind: .investment, openingBalance: Scenario.chf(100_000), openedOn: opened)),
            s.command(.openWallet(walletID: crypto, name: "Alice's crypto", kind: .investment, openingBalance: Scenario.eur(0), openedOn: opened, owner: s.alice)),
            s.command(.openWallet(walletID: fund, name: "Bob's fund", kind: .investment, openingBalance: Scenario.chf(50_000), openedOn: opened, owner: s.bob), by: s.bob),
            s.command(.recordTransfer(transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: etf, amountSent: Scenario.chf(50_000), date: Scenario.date("2026-01-10"))),
            s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-31"), balance: Scenario.chf(180_000))),
            // After the point: counts in the value and in the contributions.
            s.command(.recordTransfer(transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: etf, amountSent: Scenario.chf(10_000), date: Scenario.date("2026-02-05"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
                kind: .income, amount: Scenario.eur(20_000), walletID: crypto, categoryID: s.salary, date: Scenario.date("2026-01-15"), payer: s.alice))),
            s.command(.recordBalance(walletID: crypto, date: Scenario.date("2026-02-01"), balance: Scenario.eur(15_000))),
        ])
        func row(_ portfolio: InvestmentPortfolio, _ wallet: WalletID) -> String {
            guard let position = portfolio.positions.first(where: { $0.walletID == wallet }) else { return "absent" }
            return "\(position.value.minorUnits) \(position.netContributions.minorUnits) \(position.gain.minorUnits) "
                + "\(position.valueInBase.map { String($0.minorUnits) } ?? "-") \(position.allocationBasisPoints.map(String.init) ?? "-")"
        }

        // No EUR rate yet: the crypto wallet is a gap in the base currency (N3), never 1.0.
        let withoutRate = try await ledger.investments(visibleTo: .audit)
        #expect(withoutRate.missingRates == [.eur])
        #expect(row(withoutRate, crypto) == "15000 20000 -5000 - -", "a loss of EUR 50.00, no base value, no share")
        #expect(row(withoutRate, etf) == "190000 160000 30000 190000 7917")
        #expect(withoutRate.totalValue == Scenario.chf(240_000))

        let rate = try ExchangeRate(base: .eur, quote: .chf, scaledRate: 90_000_000)
        try await ledger.execute(s.command(.setExchangeRate(exchangeRate: rate, asOf: opened)))
        let audit = try await ledger.investments(visibleTo: .audit)
        #expect(audit.positions.map(\.name) == ["Alice's crypto", "Bob's fund", "ETF"], "by name")
        #expect(row(audit, crypto) == "15000 20000 -5000 13500 533")
        #expect(row(audit, fund) == "50000 50000 0 50000 1972", "no point: the value is what was put in")
        #expect(row(audit, etf) == "190000 160000 30000 190000 7495")
        #expect(audit.missingRates.isEmpty)
        #expect((audit.totalValue, audit.totalNetContributions, audit.totalGain) == (Scenario.chf(253_500), Scenario.chf(228_000), Scenario.chf(25_500)))
        #expect(audit.positions.compactMap(\.allocationBasisPoints).reduce(0, +) == 10_000)

        let bobs = try await ledger.investments(visibleTo: .member(s.bob))
        #expect(bobs.positions.map(\.walletID) == [fund, etf], "G7: not Alice's own wallet")
        #expect(row(bobs, etf) == "190000 160000 30000 190000 7917", "the allocation of what Bob sees")
        #expect(bobs.totalValue == Scenario.chf(240_000))
        #expect(try await ledger.investments(visibleTo: .member(s.alice)).positions.map(\.walletID) == [crypto, etf])
        try await ledger.close()
    }
}
