import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

@Suite("WalletProjection")
struct WalletProjectionTests {
    @Test("W3: balance is opening + income - expenses +/- transfers")
    func balanceFormula() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 100_000)
        let cash = s.wallet("Cash", .cash, opening: 5_000)
        s.income(300_000, wallet: bank, on: "2026-01-25")
        s.expense(12_345, wallet: bank, on: "2026-01-26")
        s.add(.transferRecorded(TransferRecorded(
            transferID: s.id(), fromWalletID: bank, toWalletID: cash, amountSent: chf(20_000),
            amountReceived: chf(20_000), date: d("2026-01-27"), note: nil)))
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.balance(of: bank) == chf(100_000 + 300_000 - 12_345 - 20_000))
        #expect(try wallets.balance(of: cash) == chf(25_000))
        #expect(try wallets.balance(of: bank, asOf: d("2026-01-25")) == chf(400_000))
        #expect(try wallets.balance(of: bank, asOf: d("2025-12-31")) == nil)
        #expect(try wallets.totals().baseTotal == chf(100_000 + 300_000 - 12_345 + 5_000))
    }

    @Test("W6: a transfer between currencies moves both recorded amounts")
    func crossCurrencyTransfer() throws {
        var s = Scenario()
        let chfWallet = s.wallet("CHF", opening: 100_000)
        let eurWallet = s.wallet("EUR", opening: 0, currency: .eur)
        s.add(.transferRecorded(TransferRecorded(
            transferID: s.id(), fromWalletID: chfWallet, toWalletID: eurWallet, amountSent: chf(10_000),
            amountReceived: Money(minorUnits: 10_520, currency: .eur), date: d("2026-02-01"), note: nil)))
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.balance(of: chfWallet) == chf(90_000))
        #expect(try wallets.balance(of: eurWallet) == Money(minorUnits: 10_520, currency: .eur))
    }

    @Test("T3: a deleted transaction counts nowhere; a restore brings it back")
    func deleteAndRestore() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 1_000)
        let spend = s.expense(300, wallet: bank, on: "2026-01-02")
        s.delete(spend)
        #expect(try s.fold(WalletProjection.self).balance(of: bank) == chf(1_000))
        #expect(try s.fold(WalletProjection.self).balances().first?.liveTransactionCount == 0)
        s.restore(spend)
        #expect(try s.fold(WalletProjection.self).balance(of: bank) == chf(700))
    }

    @Test("T2: an edit that changes wallet and amount moves the money between wallets")
    func editMovesAmount() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 1_000)
        let cash = s.wallet("Cash", .cash, opening: 1_000)
        let spend = s.expense(300, wallet: bank, on: "2026-01-02")
        s.edit(spend, Scenario.details(.expense, 450, .chf, wallet: cash, category: Scenario.groceries,
                                       on: "2026-01-02", payer: Scenario.alice))
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.balance(of: bank) == chf(1_000))
        #expect(try wallets.balance(of: cash) == chf(550))
    }

    @Test("W4: an inactive wallet is excluded from totals but keeps its balance")
    func inactiveExcluded() throws {
        var s = Scenario()
        s.wallet("Bank", opening: 1_000)
        let old = s.wallet("Old", opening: 500)
        s.add(.walletDeactivated(WalletDeactivated(walletID: old)))
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.totals().baseTotal == chf(1_000))
        #expect(try wallets.balance(of: old) == chf(500))
    }

    @Test("W1: liabilities hold the amount owed; an expense on a card raises it; totals subtract it")
    func liabilities() throws {
        var s = Scenario()
        s.wallet("Bank", opening: 10_000)
        let card = s.wallet("Card", .card, opening: 2_000)
        s.expense(500, wallet: card, on: "2026-01-03")
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.balance(of: card) == chf(2_500))
        #expect(try wallets.totals().baseTotal == chf(7_500))
    }

    @Test("W5: a balance point sets a property's value; on a bank wallet it is only a reported difference")
    func propertyValuationVersusReconciliation() throws {
        var s = Scenario()
        let house = s.wallet("House", .property, opening: 50_000_000)
        let bank = s.wallet("Bank", opening: 10_000)
        s.expense(2_000, wallet: bank, on: "2026-01-10")
        s.add(.balanceRecorded(BalanceRecorded(walletID: house, date: d("2026-03-01"), balance: chf(52_000_000))))
        s.add(.balanceRecorded(BalanceRecorded(walletID: bank, date: d("2026-01-31"), balance: chf(7_900))))
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.balance(of: house, asOf: d("2026-02-28")) == chf(50_000_000))
        #expect(try wallets.balance(of: house) == chf(52_000_000))
        #expect(try wallets.balance(of: bank) == chf(8_000))
        let reconciliation = try #require(try wallets.reconciliations().first)
        #expect(reconciliation.asserted == chf(7_900))
        #expect(reconciliation.derived == chf(8_000))
        #expect(reconciliation.difference == chf(-100))
        #expect(try wallets.reconciliations().count == 1)
    }

    @Test("N3: a currency without a rate is a reported gap, never converted at 1.0")
    func fxGap() throws {
        var s = Scenario()
        s.wallet("Bank", opening: 10_000)
        s.wallet("Euro", opening: 5_000, currency: .eur)
        s.wallet("Dollar", opening: 1_000, currency: .usd)
        s.rate(.eur, .chf, "0.94", on: "2026-01-01")
        let totals = try s.fold(WalletProjection.self).totals()
        #expect(totals.baseTotal == chf(10_000 + 4_700))
        #expect(totals.missingRates == [.usd])
        #expect(!totals.isComplete)
        #expect(totals.perCurrency == [chf(10_000), Money(minorUnits: 5_000, currency: .eur), Money(minorUnits: 1_000, currency: .usd)])
    }

    @Test("N3: the inverse of the reverse rate is used, rounded half-even, latest at or before the date")
    func inverseRate() throws {
        var s = Scenario()
        s.wallet("Euro", opening: 1_000, currency: .eur)
        s.rate(.chf, .eur, "2", on: "2026-01-01")
        s.rate(.chf, .eur, "4", on: "2026-06-01")
        let wallets = s.fold(WalletProjection.self)
        #expect(try wallets.totals(asOf: d("2026-03-01")).baseTotal == chf(500))
        #expect(try wallets.totals().baseTotal == chf(250))
    }

    @Test("G7: a member's view leaves out wallets owned by another member")
    func personalWalletsHidden() throws {
        var s = Scenario()
        s.wallet("Joint", opening: 1)
        s.wallet("Alice's", opening: 2, owner: Scenario.alice)
        s.wallet("Bob's", opening: 3, owner: Scenario.bob)
        let names = try s.fold(WalletProjection.self).balances(visibleTo: .member(Scenario.bob)).map(\.name)
        #expect(names == ["Bob's", "Joint"])
    }

    @Test("Hostile events become problems, never traps")
    func hostileEvents() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: 0)
        s.expense(100, wallet: WalletID(UUIDValue(high: 3, low: 3)), on: "2026-01-01")
        s.expense(100, wallet: bank, on: "2026-01-01", currency: .eur)
        s.delete(TransactionID(UUIDValue(high: 3, low: 4)))
        let wallets = s.fold(WalletProjection.self)
        #expect(wallets.problems.map(\.rule) == ["T1", "T1", "T3"])
        #expect(try wallets.balance(of: bank) == chf(0))
    }

    @Test("G1: a balance beyond Int64 is a typed overflow error from the query")
    func overflowReported() throws {
        var s = Scenario()
        let bank = s.wallet("Bank", opening: .max)
        s.income(1, wallet: bank, on: "2026-01-02")
        let wallets = s.fold(WalletProjection.self)
        #expect(throws: ProjectionError.self) { try wallets.balance(of: bank) }
    }
}
