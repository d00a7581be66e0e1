@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// The one wallet book (the wallet read model, ``WalletProjection``): validation's W4 and W5
/// checks read the same wallets, values, balance points and live counts the read model shows.
@Suite("One wallet book")
struct OneWalletBookTests {
    /// An empty CHF cash wallet opened on 2026-01-01.
    static func openCash(_ s: inout Scenario, _ ledger: Ledger) async throws -> WalletID {
        let cash: WalletID = s.ids.next()
        try await ledger.execute(s.command(.openWallet(
            walletID: cash, name: "Cash", kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"), owner: nil)))
        return cash
    }

    @Test("W4, W5: closing an observed wallet checks the value the read model shows (its latest point and what moved after it), not the last point recorded")
    func closeChecksTheValueShown() async throws {
        var (test, s) = try await EditingTests.household()
        let etf = try await EditingTests.portfolio(&s, test.ledger)
        try await test.ledger.execute(s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(0))))
        let transfer: TransferID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: etf, amountSent: Scenario.chf(2_500), amountReceived: Scenario.chf(2_500),
            date: Scenario.date("2026-01-25"), note: nil)))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(2_500), "the point and the transfer after it")
        let close = s.command(.closeWallet(walletID: etf, closedOn: Scenario.date("2026-01-31")))
        await expectRejection(test.ledger, close, code: "walletBalanceNotZero", rule: "W4")
        do {
            try await test.ledger.execute(close)
        } catch {
            #expect("\(error)".contains("CHF 25.00"), "the message names the value shown: \(error)")
        }

        // A point recorded later for an earlier date does not count over the later one (W5).
        try await test.ledger.execute(s.command(.deleteTransfer(transferID: transfer)))
        try await test.ledger.execute(s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-26"), balance: Scenario.chf(700))))
        try await test.ledger.execute(s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-22"), balance: Scenario.chf(0))))
        #expect(try await test.ledger.readModels.wallets.balance(of: etf) == Scenario.chf(700))
        await expectRejection(test.ledger, close, code: "walletBalanceNotZero", rule: "W4")
        try await test.ledger.execute(s.command(.removeBalance(walletID: etf, date: Scenario.date("2026-01-26"))))
        try await test.ledger.execute(close)
    }

    @Test("W4: a wallet's kind stays while a live transfer touches it (the transfer counts, not only transactions)")
    func kindChangeCountsTransfers() async throws {
        var (test, s) = try await EditingTests.household()
        let cash = try await Self.openCash(&s, test.ledger)
        let transfer: TransferID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: cash, amountSent: Scenario.chf(1_000), amountReceived: Scenario.chf(1_000),
            date: Scenario.date("2026-01-05"), note: nil)))
        await expectRejection(test.ledger, s.command(.changeWalletKind(walletID: cash, kind: .savings)), code: "walletHasTransactions", rule: "W4")
        try await test.ledger.execute(s.command(.deleteTransfer(transferID: transfer)))
        try await test.ledger.execute(s.command(.changeWalletKind(walletID: cash, kind: .savings)))
        #expect(try await test.ledger.readModels.wallets.balances().first { $0.walletID == cash }?.kind == .savings)
    }

    @Test("W4: a closed wallet is neither deactivated nor reactivated (walletInactive): it stays out of totals for good")
    func closedWalletStaysClosed() async throws {
        var (test, s) = try await EditingTests.household()
        let cash = try await Self.openCash(&s, test.ledger)
        try await test.ledger.execute(s.command(.closeWallet(walletID: cash, closedOn: Scenario.date("2026-01-06"))))
        await expectRejection(test.ledger, s.command(.reactivateWallet(walletID: cash)), code: "walletInactive", rule: "W4")
        await expectRejection(test.ledger, s.command(.deactivateWallet(walletID: cash)), code: "walletInactive", rule: "W4")
        let wallet = try #require(try await test.ledger.readModels.wallets.balances().first { $0.walletID == cash })
        #expect(wallet.closedOn == Scenario.date("2026-01-06") && !wallet.countsInTotals)
    }

    @Test("W4: a closed wallet keeps the value it closed with: recordBalance on it is walletInactive, and an undo that would change it (a transfer deleted, a balance point removed) is refused with walletInactive")
    func closedWalletKeepsItsValue() async throws {
        var (test, s) = try await EditingTests.household()
        let cash = try await Self.openCash(&s, test.ledger)
        let inflow = s.command(.recordTransfer(
            transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: cash, amountSent: Scenario.chf(1_000), amountReceived: Scenario.chf(1_000),
            date: Scenario.date("2026-01-05"), note: nil))
        let outflow = s.command(.recordTransfer(
            transferID: s.ids.next(), fromWalletID: cash, toWalletID: s.joint, amountSent: Scenario.chf(1_000), amountReceived: Scenario.chf(1_000),
            date: Scenario.date("2026-01-06"), note: nil))
        try await test.ledger.execute(inflow)
        try await test.ledger.execute(outflow)
        try await test.ledger.execute(s.command(.closeWallet(walletID: cash, closedOn: Scenario.date("2026-01-07"))))
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: outflow.commandID)), code: "walletInactive", rule: "W4")
        await expectRejection(test.ledger, s.command(.recordBalance(walletID: cash, date: Scenario.date("2026-01-08"), balance: Scenario.chf(5))),
                              code: "walletInactive", rule: "W4")

        let etf = try await EditingTests.portfolio(&s, test.ledger)  // opened with CHF 100.00
        let point = s.command(.recordBalance(walletID: etf, date: Scenario.date("2026-01-20"), balance: Scenario.chf(0)))
        try await test.ledger.execute(point)
        try await test.ledger.execute(s.command(.closeWallet(walletID: etf, closedOn: Scenario.date("2026-01-21"))))
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: point.commandID)), code: "walletInactive", rule: "W4")
        let balances = try await test.ledger.readModels.wallets.balances()
        #expect(balances.first { $0.walletID == cash }?.balance == Scenario.chf(0) && balances.first { $0.walletID == etf }?.balance == Scenario.chf(0),
                "both keep the zero they closed with")
    }
}
