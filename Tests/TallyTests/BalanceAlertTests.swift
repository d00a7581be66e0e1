import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Balance-threshold alerts (Tim "Post-MVP alerts", R6): `setBalanceAlert` records
/// `WalletBalanceAlertSet`; `ledger.alerts(on:visibleTo:)` reports a wallet whose balance at the
/// end of the day is below or above its alert, for the wallets the viewer sees (G7).
@Suite("Balance alerts")
struct BalanceAlertTests {
    static func balanceAlerts(_ ledger: Ledger, _ day: String, _ viewer: Viewer) async throws -> [String] {
        try await ledger.alerts(on: Scenario.date(day), visibleTo: viewer).compactMap { alert in
            switch alert.kind {
            case .balanceBelow(_, let balance, let threshold): "below \(balance.minorUnits) < \(threshold.minorUnits)"
            case .balanceAbove(_, let balance, let threshold): "above \(balance.minorUnits) > \(threshold.minorUnits)"
            default: nil
            }
        }
    }

    @Test("Post-MVP alerts, R6, T5: a household wallet's alert is in force while its balance at the end of the day is below or above its thresholds, for every member; undo puts back the previous alert; both thresholds absent removes it")
    func householdWalletAlert() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("balance-alerts", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // Joint: CHF 1000.00 from 2026-01-01
        let set = s.command(.setBalanceAlert(walletID: s.joint, below: Scenario.chf(50_000), above: Scenario.chf(200_000)))
        try await test.ledger.execute(set)
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-09", .member(s.alice)).isEmpty)
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 60_000, "2026-01-10"))))
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-09", .member(s.alice)).isEmpty, "the balance at the end of the day asked")
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .member(s.alice)) == ["below 40000 < 50000"])
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .member(s.bob)) == ["below 40000 < 50000"])
        let alert = try #require(try await test.ledger.alerts(on: Scenario.date("2026-01-10"), visibleTo: .audit).first {
            if case .balanceBelow = $0.kind { true } else { false }
        })
        #expect(alert.id == "balance/below/\(s.joint)/50000")
        let raise = s.command(.setBalanceAlert(walletID: s.joint, below: nil, above: Scenario.chf(30_000)))
        try await test.ledger.execute(raise)
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .audit) == ["above 40000 > 30000"])
        try await test.ledger.execute(s.command(.undo(targetCommandID: raise.commandID)))
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .audit) == ["below 40000 < 50000"])
        try await test.ledger.execute(s.command(.setBalanceAlert(walletID: s.joint)))
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .audit).isEmpty)
        #expect(await test.ledger.balanceAlerts(visibleTo: .audit).isEmpty)
    }

    @Test("Post-MVP alerts, G7, W1, R6: another member's own wallet is unknownWallet to the actor, and its alert reaches its owner only; a threshold in another currency or below not under above is alertSettingsInvalid")
    func privacyAndRules() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("balance-alerts-g7", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // Euro card: Alice's own, EUR 0.00
        await expectRejection(test.ledger, s.command(.setBalanceAlert(walletID: s.euroCard, below: Scenario.eur(1_000)), by: s.bob), code: "unknownWallet", rule: "W1")
        await expectRejection(test.ledger, s.command(.setBalanceAlert(walletID: s.euroCard, below: Scenario.chf(1_000))), code: "alertSettingsInvalid", rule: "R6")
        await expectRejection(test.ledger, s.command(.setBalanceAlert(walletID: s.joint, below: Scenario.chf(1_000), above: Scenario.chf(1_000))), code: "alertSettingsInvalid", rule: "R6")
        await expectRejection(test.ledger, s.command(.setBalanceAlert(walletID: s.ids.next(), below: Scenario.chf(1_000))), code: "unknownWallet", rule: "W1")
        try await test.ledger.execute(s.command(.setBalanceAlert(walletID: s.euroCard, below: Scenario.eur(1_000))))
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .member(s.alice)) == ["below 0 < 1000"])
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-10", .member(s.bob)).isEmpty)
        #expect(await test.ledger.balanceAlerts(visibleTo: .member(s.bob)).isEmpty)
        #expect(await test.ledger.balanceAlerts(visibleTo: .member(s.alice)).map(\.walletID) == [s.euroCard])
        try await test.ledger.execute(s.command(.closeWallet(walletID: s.euroCard, closedOn: Scenario.date("2026-01-11"))))
        #expect(try await Self.balanceAlerts(test.ledger, "2026-01-12", .member(s.alice)).isEmpty, "a closed wallet does not count")
        await expectRejection(test.ledger, s.command(.setBalanceAlert(walletID: s.euroCard, below: Scenario.eur(5))), code: "walletInactive", rule: "W4")
    }
}
