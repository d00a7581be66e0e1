import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// W5 as revised (issue 31 item 2; Drishti E6-S4, E7-S1, E8-S6; Tim): every wallet has a
/// valuation, tracked through its transactions or observed through its balance points, chosen at
/// open (default by kind) and changeable with `setWalletValuation`.
@Suite("W5: a wallet's valuation, tracked or observed", .serialized)
struct WalletValuationTests {
    @Test("W5 (Drishti E6-S4, Tim): a bank account opened as observed takes its value from its latest balance point, plus what moved after it; the store, the totals and the statement agree, and a reopened ledger reads the same")
    func observedBankAccount() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("valuation-bank", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let bank: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(
            walletID: bank, name: "UBS", kind: .bank, openingBalance: Scenario.chf(10_000), openedOn: Scenario.date("2026-01-01"),
            owner: nil, valuation: .observed)))
        var expense = s.expense(2_500)
        expense.walletID = bank
        expense.date = Scenario.date("2026-01-03")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: expense)))
        try await test.ledger.execute(s.command(.recordBalance(walletID: bank, date: Scenario.date("2026-01-10"), balance: Scenario.chf(50_000))))
        expense.date = Scenario.date("2026-01-12")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: expense)))

        // Observed: the point (500.00) and the expense after it (-25.00); tracked it would be 100.00 - 2 x 25.00.
        let want = Scenario.chf(50_000 - 2_500)
        let stored = try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == bank }
        #expect(stored?.valuation == .observed && stored?.balance == want)
        #expect(try await test.ledger.auditRead { try $0.wallets.balance(of: bank) } == want)
        let totals = try await test.ledger.totals(visibleTo: .audit)
        #expect(totals.perCurrency.first { $0.currency == .chf } == Scenario.chf(100_000 + 50_000 - 2_500), "the joint account and the observed bank")
        let statement = try await test.ledger.statement(StatementQuery(walletID: bank, visibleTo: .audit))
        #expect(statement.rows.count == 2 && statement.rows.allSatisfy { $0.balance == nil }, "an observed wallet's rows carry no running balance")

        try await test.ledger.close()
        let reopened = try await Ledger.open(at: test.directory.appending("ledger"))
        #expect(try await reopened.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == bank }?.balance == want)
        try await reopened.close()
    }

    @Test("W5, N1 (Drishti E8-S6): a loan observed by its balance points counts negative in net worth; a tracked card's point is only an assertion (reconciliation), never its value")
    func observedLiability() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("valuation-loan", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let mortgage: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(
            walletID: mortgage, name: "Mortgage", kind: .loan, openingBalance: Scenario.chf(40_000_000),
            openedOn: Scenario.date("2026-01-01"), owner: nil, valuation: .observed)))
        try await test.ledger.execute(s.command(.recordBalance(walletID: mortgage, date: Scenario.date("2026-02-01"), balance: Scenario.chf(39_500_000))))
        let totals = try await test.ledger.totals(visibleTo: .audit)
        #expect(totals.perCurrency.first { $0.currency == .chf } == Scenario.chf(100_000 - 39_500_000), "what is owed, by the latest point, counts negative")
        // The joint account is tracked: a point asserts, the balance stays derived (W3).
        try await test.ledger.execute(s.command(.recordBalance(walletID: s.joint, date: Scenario.date("2026-02-01"), balance: Scenario.chf(1))))
        let joint = s.joint
        #expect(try await test.ledger.auditRead { try $0.wallets.balance(of: joint) } == Scenario.chf(100_000))
        #expect(try await test.ledger.auditRead { try $0.wallets.reconciliations() }.contains { $0.walletID == joint && $0.difference == Scenario.chf(1 - 100_000) })
        try await test.ledger.close()
    }

    @Test("W5, T5: setWalletValuation switches a wallet between tracked and observed, undo puts the one it had back; setting what it is already, an unknown or a closed wallet are rejected and append nothing")
    func changeAndUndo() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("valuation-change", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let joint = s.joint
        try await test.ledger.execute(s.command(.recordBalance(walletID: joint, date: Scenario.date("2026-01-20"), balance: Scenario.chf(77_700))))
        let balance = { () async throws -> Money? in try await test.ledger.auditRead { try $0.wallets.balance(of: joint) } }
        #expect(try await balance() == Scenario.chf(100_000), "a bank is tracked by default")

        let observe = s.command(.setWalletValuation(walletID: joint, valuation: .observed))
        try await test.ledger.execute(observe)
        #expect(try await balance() == Scenario.chf(77_700), "observed: the point is the value")
        await expectRejection(test.ledger, s.command(.setWalletValuation(walletID: joint, valuation: .observed)), code: "walletStateUnchanged", rule: "W4")
        try await test.ledger.execute(s.command(.undo(targetCommandID: observe.commandID)))
        #expect(try await balance() == Scenario.chf(100_000), "undo: tracked again")
        #expect(try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == joint }?.valuation == .tracked)

        // Undo of a first setting leaves none set: the kind's default follows a later kind change.
        let other: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(walletID: other, name: "Box", kind: .other, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))))
        let set = s.command(.setWalletValuation(walletID: other, valuation: .observed))
        try await test.ledger.execute(set)
        try await test.ledger.execute(s.command(.undo(targetCommandID: set.commandID)))
        try await test.ledger.execute(s.command(.changeWalletKind(walletID: other, kind: .property)))
        #expect(try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == other }?.valuation == .observed,
                "no valuation set after the undo: a property is observed by default")
        await expectRejection(test.ledger, s.command(.setWalletValuation(walletID: s.ids.next(), valuation: .observed)), code: "unknownWallet", rule: "W1")
        let empty: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: empty, name: "Old", kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))),
            s.command(.closeWallet(walletID: empty, closedOn: Scenario.date("2026-01-31"))),
        ])
        await expectRejection(test.ledger, s.command(.setWalletValuation(walletID: empty, valuation: .observed)), code: "walletInactive", rule: "W4")
        try await test.ledger.close()
    }

    @Test("W5, R6: stale-balance alerts cover every observed wallet, a bank account set to observed included, and no tracked one")
    func staleAlertsForEveryObservedWallet() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("valuation-stale", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute([
            s.command(.recordBalance(walletID: s.joint, date: Scenario.date("2026-01-02"), balance: Scenario.chf(100_000))),
            s.command(.recordBalance(walletID: s.euroCard, date: Scenario.date("2026-01-02"), balance: Scenario.eur(0))),
            s.command(.setWalletValuation(walletID: s.joint, valuation: .observed)),
            s.command(.setAlertSettings(settings: AlertSettingsSet(budgetThresholds: [], upcomingDays: 0, staleBalanceDays: 30, largeTransaction: nil))),
        ])
        let alerts = try await test.ledger.alerts(on: Scenario.date("2026-03-01"), visibleTo: .audit)
        let stale = alerts.compactMap { alert -> WalletID? in
            if case .staleBalance(let wallet, _, _) = alert.kind { wallet } else { nil }
        }
        #expect(stale == [s.joint], "the observed joint account, not the tracked card")
        try await test.ledger.close()
    }

    @Test("W5: a command line with a valuation reads back as it; without one it is the kind's default, and a valuation given stays when the kind changes")
    func commandLineAndKindChange() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("valuation-line", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let house: WalletID = s.ids.next()
        let open = s.command(.openWallet(
            walletID: house, name: "House", kind: .property, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"),
            valuation: .tracked))
        #expect(try CommandParser.parse(line: open.jsonLine) == open)
        #expect(open.jsonLine.contains("\"valuation\": \"tracked\"") || open.jsonLine.contains("\"valuation\":\"tracked\""), "\(open.jsonLine)")
        try await test.ledger.execute(open)
        try await test.ledger.execute(s.command(.changeWalletKind(walletID: house, kind: .investment)))
        let valuations = try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }
        #expect(valuations.first { $0.walletID == house }?.valuation == .tracked, "the valuation given is kept")
        #expect(valuations.first { $0.walletID == s.joint }?.valuation == .tracked && valuations.first { $0.walletID == s.euroCard }?.valuation == .tracked)
        try await test.ledger.close()
    }

    @Test("W4, US-011 (issue 31, reopening a closed wallet): a closed wallet refuses entries; reopenWallet lets it count and take them again, its history kept; an open wallet cannot be reopened; undo closes it again on the day it was closed; undoing a close reopens")
    func reopenAClosedWallet() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("wallet-reopen", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let old: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: old, name: "Old cash", kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))),
            s.command(.closeWallet(walletID: old, closedOn: Scenario.date("2026-01-31"))),
        ])
        var expense = s.expense(1_500)
        expense.walletID = old
        await expectRejection(test.ledger, s.command(.recordTransaction(transactionID: s.ids.next(), entry: expense)), code: "walletInactive", rule: "W4")
        let reopen = s.command(.reopenWallet(walletID: old))
        try await test.ledger.execute(reopen)
        let balances = { () async throws -> WalletBalance? in try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == old } }
        let reopened = try await balances()
        #expect(reopened?.closedOn == nil && reopened?.countsInTotals == true)
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: expense)))
        #expect(try await balances()?.balance == Scenario.chf(-1_500), "it takes entries again")
        await expectRejection(test.ledger, s.command(.reopenWallet(walletID: old)), code: "walletStateUnchanged", rule: "W4")

        let other: WalletID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: other, name: "Spare", kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))),
            s.command(.closeWallet(walletID: other, closedOn: Scenario.date("2026-02-10"))),
        ])
        let again = s.command(.reopenWallet(walletID: other))
        try await test.ledger.execute(again)
        try await test.ledger.execute(s.command(.undo(targetCommandID: again.commandID)))
        let spare = try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == other }
        #expect(spare?.closedOn == Scenario.date("2026-02-10"), "undo closed it again on its day")
        let empty: WalletID = s.ids.next()
        let close = s.command(.closeWallet(walletID: empty, closedOn: Scenario.date("2026-03-31")))
        try await test.ledger.execute([
            s.command(.openWallet(walletID: empty, name: "Empty", kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))),
        ])
        try await test.ledger.execute(close)
        try await test.ledger.execute(s.command(.undo(targetCommandID: close.commandID)))
        let recovered = try await test.ledger.read { db in try db.walletBalances(visibleTo: .audit) }.first { $0.walletID == empty }
        #expect(recovered?.closedOn == nil, "US-011: undoing the close reopens the wallet")
        try await test.ledger.close()
    }
}
