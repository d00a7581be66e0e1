import Foundation
import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// G1 "arithmetic that would overflow is an error, not a wrap", enforced at command time
/// (Sources/Tally/Tally.docc/Commands.md, "Limits"): every amount, rate and sum an accepted command records stays
/// within ``LedgerLimits``, so balances, net worth, debts and budgets never overflow later.
@Suite("Ledger bounds (G1)")
struct LedgerBoundsTests {
    static func income(_ s: Scenario, _ money: Money, wallet: WalletID? = nil) -> TransactionEntry {
        TransactionEntry(kind: .income, amount: money, walletID: wallet ?? s.joint, categoryID: s.salary,
                         date: Scenario.date("2026-01-05"), payer: s.alice)
    }

    @Test("G1/S7: an exact group split whose shares sum past Int64 is exactSplitMustSumToTotal, not a trap")
    func exactSplitSumOverflowIsRejected() async throws {
        var (test, s) = try await RuleCoverageTests.household()
        let group: GroupID = s.ids.next()
        try await test.ledger.execute(s.command(.createGroup(groupID: group, name: "Trip", members: [s.alice, s.bob])))
        let split = GroupSplit.exact([PersonShare(person: s.alice, amount: Scenario.chf(.max)), PersonShare(person: s.bob, amount: Scenario.chf(2))])
        await expectRejection(
            test.ledger,
            s.command(.recordGroupExpense(expenseID: s.ids.next(), groupID: group, paidBy: s.alice, amount: Scenario.chf(1),
                                          date: Scenario.date("2026-01-05"), note: nil, split: split)),
            code: "exactSplitMustSumToTotal", rule: "S7")
    }

    @Test("G1: repeated maximal incomes are totalOutOfRange once the CHF bound would be passed; balances, net worth and replay still work")
    func repeatedLargeIncomesStopAtTheCurrencyBound() async throws {
        var (test, s) = try await RuleCoverageTests.household()
        let largest = LedgerLimits.amountMinorUnitsMax
        // CHF 1000 opening + 99 x 10^15 fits under 10^17; the 100th income would pass it.
        let accepted = Int((LedgerLimits.currencyExposureMinorUnitsMax - 100_000) / largest)
        for _ in 0..<accepted {
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, Scenario.chf(largest)))))
        }
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, Scenario.chf(largest)))),
                              code: "totalOutOfRange", rule: "G1")
        // A backdated expense cannot pass it either (every recorded amount counts).
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(largest))),
                              code: "totalOutOfRange", rule: "G1")
        let readModels = await test.ledger.readModels
        let joint = try readModels.wallets.balance(of: s.joint)
        #expect(joint?.minorUnits == 100_000 + Int64(accepted) * largest)
        _ = try readModels.wallets.totals()
        _ = try readModels.netWorth.series()
        _ = try readModels.canonicalJSON()
        let state = await test.ledger.state
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.state == state)
        #expect(try await reopened.readModels.wallets.balance(of: s.joint) == joint)
        try await reopened.close()
    }

    @Test("G1/N3: a rate that would convert the recorded amounts past the converted bound is totalOutOfRange; at the bound net worth converts")
    func conversionAtTheBound() async throws {
        var (test, s) = try await RuleCoverageTests.household()
        let vault: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(
            walletID: vault, name: "Vault", kind: .savings, openingBalance: Scenario.eur(LedgerLimits.amountMinorUnitsMax),
            openedOn: Scenario.date("2026-01-01"), owner: nil)))
        let date = Scenario.date("2026-01-05")
        // 10^15 EUR cents x 100 = 10^17 CHF cents, plus the CHF 1000 opening: one cent over.
        let over = try ExchangeRate(base: .eur, quote: .chf, scaledRate: 10_000_000_000)
        await expectRejection(test.ledger, s.command(.setExchangeRate(exchangeRate: over, asOf: date)), code: "totalOutOfRange", rule: "G1")
        // The inverse quote is bounded the same way.
        let inverseOver = try ExchangeRate(base: .chf, quote: .eur, scaledRate: 1_000_000)
        await expectRejection(test.ledger, s.command(.setExchangeRate(exchangeRate: inverseOver, asOf: date)), code: "totalOutOfRange", rule: "G1")
        let tooLarge = try ExchangeRate(base: .eur, quote: .chf, scaledRate: LedgerLimits.exchangeRateScaledMax + 1)
        await expectRejection(test.ledger, s.command(.setExchangeRate(exchangeRate: tooLarge, asOf: date)), code: "invalidValue", rule: "G6")
        let atBound = try ExchangeRate(base: .eur, quote: .chf, scaledRate: 9_999_999_999)
        try await test.ledger.execute(s.command(.setExchangeRate(exchangeRate: atBound, asOf: date)))
        // The bound is now CHF 99'900 (9'900'000 cents) away: EUR 1000 more would pass it.
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, Scenario.eur(100_000), wallet: vault))),
                              code: "totalOutOfRange", rule: "G1")
        let readModels = await test.ledger.readModels
        let points = try readModels.netWorth.series()
        let value = try #require(points.last?.value)
        #expect(value.minorUnits == 100_000 + 99_999_999_990_000_000)
        _ = try readModels.wallets.totals()
    }

    @Test("G1: a currency that is not ISO 4217 (BTC, ZZZ) is unknownCurrency naming the code, from the Swift API and the JSON schema")
    func nonISOCurrencyIsUnknownCurrency() async throws {
        var (test, s) = try await RuleCoverageTests.household()
        let btc = try Currency("BTC")
        await expectRejection(
            test.ledger,
            s.command(.openWallet(walletID: s.ids.next(), name: "Coins", kind: .investment, openingBalance: Money(minorUnits: 0, currency: btc),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            code: "unknownCurrency", rule: "G1")
        let rate = try ExchangeRate(base: try Currency("ZZZ"), quote: .chf, scaledRate: 100_000_000)
        await expectRejection(test.ledger, s.command(.setExchangeRate(exchangeRate: rate, asOf: Scenario.date("2026-01-05"))),
                              code: "unknownCurrency", rule: "G1")
        let line = #"{"command":"changeBaseCurrency","commandID":"0000000c-0000-4000-8000-000000000001","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-05T10:00:00.000Z","baseCurrency":"BTC"}"#
        do {
            _ = try CommandParser.parse(line: line)
            Issue.record("BTC accepted")
        } catch {
            #expect(error.code == .badValue && error.field == "baseCurrency")
            #expect(error.message.contains("'BTC' is not an active ISO 4217"))
        }
        do {
            _ = try CommandParser.parse(line: CommandParserStrictJSONTests.expense(minorUnits: "1").replacingOccurrences(of: #"{"minorUnits":1,"currency":"CHF"}"#, with: #""ZZZ 1.00""#))
            Issue.record("ZZZ accepted")
        } catch {
            #expect(error.code == .badValue && error.field == "amount", "\(error)")
        }
    }
}
