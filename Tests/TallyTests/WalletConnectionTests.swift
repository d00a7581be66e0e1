import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// A wallet's bank connection (Tim Step 2.2, 3.1: institution, bank account id, re-authentication
/// flag): `setWalletConnection` records `WalletConnectionSet` with every field after the change,
/// folded into the wallet record and shown in the wallet JSON.
@Suite("Wallet connection")
struct WalletConnectionTests {
    static func connection(_ ledger: Ledger, _ wallet: WalletID) async -> WalletConnectionSet? {
        await ledger.state.readModels.wallets.wallets[wallet]?.connection
    }

    @Test("Tim Step 2.2, T5: setWalletConnection sets institution, external account id and status, a field left out is removed, undo puts back the previous connection, all left out removes it; the wallet JSON shows it")
    func setAndUndo() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("wallet-connection", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        #expect(await Self.connection(test.ledger, s.joint) == nil)
        try await test.ledger.execute(s.command(.setWalletConnection(
            walletID: s.joint, institution: "PostFinance", externalAccountID: "CH93-0076", status: .connected)))
        let set = try #require(await Self.connection(test.ledger, s.joint))
        #expect(set.institution == PersonalText("PostFinance", owner: s.alice))
        #expect(set.externalAccountID?.text == "CH93-0076" && set.status == .connected)
        let reauth = s.command(.setWalletConnection(walletID: s.joint, institution: "PostFinance", status: .needsReauthentication))
        try await test.ledger.execute(reauth)
        let flagged = try #require(await Self.connection(test.ledger, s.joint))
        #expect(flagged.status == .needsReauthentication && flagged.externalAccountID == nil, "the account id left out is removed")
        let json = try await test.ledger.state.readModels.wallets.canonicalJSON().text
        #expect(json.contains(#""connection":{"externalAccountID":null,"institution":{"ownerID":"\#(s.alice)","text":"PostFinance"},"status":"needsReauthentication"}"#))
        try await test.ledger.execute(s.command(.undo(targetCommandID: reauth.commandID)))
        #expect(await Self.connection(test.ledger, s.joint) == set)
        await expectRejection(test.ledger, s.command(.setWalletConnection(
            walletID: s.joint, institution: "PostFinance", externalAccountID: "CH93-0076", status: .connected)), code: "walletStateUnchanged", rule: "W4")
        let remove = s.command(.setWalletConnection(walletID: s.joint))
        try await test.ledger.execute(remove)
        #expect(await Self.connection(test.ledger, s.joint) == nil)
        #expect(try await test.ledger.state.readModels.wallets.canonicalJSON().text.contains(#""connection":null"#))
        try await test.ledger.execute(s.command(.undo(targetCommandID: remove.commandID)))
        #expect(await Self.connection(test.ledger, s.joint) == set)
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await Self.connection(reopened, s.joint) == set, "kept across reopen")
        try await reopened.close()
    }

    @Test("Tim Step 2.2: a wallet's connection status is in its balance row, the same from the read models and from the read-side store (after a reopen too)")
    func statusInBalances() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("wallet-connection-balances", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.setWalletConnection(walletID: s.joint, institution: "PostFinance", status: .needsReauthentication)))
        func statuses(_ balances: [WalletBalance]) -> [WalletID: WalletConnectionStatus] {
            balances.reduce(into: [:]) { result, balance in result[balance.walletID] = balance.connectionStatus }
        }
        let folded = try await test.ledger.state.readModels.wallets.balances()
        #expect(statuses(folded) == [s.joint: .needsReauthentication], "only the joint wallet has a status")
        let store = try #require(await test.ledger.flushedStore())
        #expect(try store.walletBalances(visibleTo: .audit) == folded)
        try await test.ledger.close()
        let reopened = try await test.reopen()
        let reopenedStore = try #require(await reopened.flushedStore())
        #expect(statuses(try reopenedStore.walletBalances(visibleTo: .audit)) == [s.joint: .needsReauthentication])
        try await reopened.close()
    }

    @Test("Tim Step 2.2, G7, W1, W4, G6: another member's own wallet is unknownWallet to the actor; an unknown or closed wallet, a blank or oversized text are refused and append nothing")
    func rules() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("wallet-connection-rules", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // Euro card: Alice's own, EUR 0.00
        await expectRejection(test.ledger, s.command(.setWalletConnection(walletID: s.euroCard, status: .connected), by: s.bob), code: "unknownWallet", rule: "W1")
        await expectRejection(test.ledger, s.command(.setWalletConnection(walletID: s.ids.next(), status: .connected)), code: "unknownWallet", rule: "W1")
        await expectRejection(test.ledger, s.command(.setWalletConnection(walletID: s.joint, institution: "  ")), code: "invalidValue", rule: "G6")
        await expectRejection(test.ledger, s.command(.setWalletConnection(
            walletID: s.joint, externalAccountID: String(repeating: "x", count: LedgerLimits.nameBytesMax + 1))), code: "inputTooLarge", rule: "G6")
        try await test.ledger.execute(s.command(.setWalletConnection(walletID: s.euroCard, institution: "Revolut", status: .disconnected)))
        #expect(await Self.connection(test.ledger, s.euroCard)?.status == .disconnected, "the owner sets their own wallet's")
        try await test.ledger.execute(s.command(.closeWallet(walletID: s.euroCard, closedOn: Scenario.date("2026-01-11"))))
        await expectRejection(test.ledger, s.command(.setWalletConnection(walletID: s.euroCard, status: .connected)), code: "walletInactive", rule: "W4")
    }

    @Test("Tim Step 2.2, P1, P3: the institution and account id are personal text of the member who set them, redacted once that member is forgotten; the status stays")
    func forgettingRedacts() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("wallet-connection-p3", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.setWalletConnection(
            walletID: s.joint, institution: "UBS", externalAccountID: "0235-00", status: .connected), by: s.bob))
        #expect(await Self.connection(test.ledger, s.joint)?.institution == PersonalText("UBS", owner: s.bob))
        try await test.ledger.execute(s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)))
        try await test.ledger.execute(s.command(.forgetPerson(personID: s.bob)))
        let forgotten = try #require(await Self.connection(test.ledger, s.joint))
        #expect(forgotten.institution?.isRedacted == true && forgotten.externalAccountID?.isRedacted == true)
        #expect(forgotten.status == .connected)
    }
}
