import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Sample data (Drishti E5-S6 "load or clear sample data for demo; flagged in UI"): a sample
/// loaded with `loadSampleData` is flagged in every read, `clearSampleData` takes it back with
/// the undo machinery (T5) and leaves exactly the real data, and is refused, changing nothing,
/// while real data depends on a sample entity.
@Suite("Sample data")
struct SampleDataTests {
    /// The sample: a wallet, an expense in it, an expense in the real joint account and a
    /// transfer from the joint account into the sample wallet; then `loadSampleData`.
    struct Sample {
        let wallet: WalletID
        let inSampleWallet: TransactionID
        let inRealWallet: TransactionID
        let transfer: TransferID
        let commands: [Command]
        var load: Command { commands[commands.count - 1] }
    }

    static func sample(_ s: inout Scenario) -> Sample {
        let wallet: WalletID = s.ids.next()
        let inSampleWallet: TransactionID = s.ids.next()
        let inRealWallet: TransactionID = s.ids.next()
        let transfer: TransferID = s.ids.next()
        var entry = s.expense(2_500)
        entry.walletID = wallet
        let commands = [
            s.command(.openWallet(walletID: wallet, name: "Sample cash", kind: .cash, openingBalance: Scenario.chf(10_000),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.recordTransaction(transactionID: inSampleWallet, entry: entry)),
            s.command(.recordTransaction(transactionID: inRealWallet, entry: s.expense(4_000))),
            s.command(.recordTransfer(transferID: transfer, fromWalletID: s.joint, toWalletID: wallet, amountSent: Scenario.chf(1_000),
                                      amountReceived: Scenario.chf(1_000), date: Scenario.date("2026-01-06"), note: nil)),
        ]
        let load = s.command(.loadSampleData(commandIDs: commands.map(\.commandID)))
        return Sample(wallet: wallet, inSampleWallet: inSampleWallet, inRealWallet: inRealWallet, transfer: transfer, commands: commands + [load])
    }

    /// The household with one real expense.
    static func household(_ label: String) async throws -> (TestLedger, Scenario, TransactionID) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        let real: TransactionID = s.ids.next()
        try await test.ledger.execute(s.setup() + [s.command(.recordTransaction(transactionID: real, entry: s.expense(1_500)))])
        return (test, s, real)
    }

    static func liveTransactions(_ ledger: Ledger, _ s: Scenario) async throws -> [StoredTransaction] {
        try await ledger.transactions(TransactionQuery(visibleTo: .member(s.alice))).rows.map(\.transaction)
    }

    @Test("E5-S6: loadSampleData flags what the sample commands created in the transaction and wallet reads, not the real data they touched")
    func loadFlagsTheSample() async throws {
        var (test, s, real) = try await Self.household("sample-flags")
        let sample = Self.sample(&s)
        try await test.ledger.execute(sample.commands)
        let flags = try #require(await test.ledger.sampleData)
        #expect(flags.loadCommandID == sample.load.commandID)
        #expect(flags.commandIDs == sample.commands.dropLast().map(\.commandID))
        let rows = try await Self.liveTransactions(test.ledger, s)
        #expect(Set(rows.map(\.transactionID)) == [real, sample.inSampleWallet, sample.inRealWallet])
        #expect(rows.filter { flags.contains(transaction: $0.transactionID) }.map(\.transactionID).sorted() == [sample.inSampleWallet, sample.inRealWallet].sorted())
        let balances = try await test.ledger.readModels.wallets.balances(visibleTo: .member(s.alice))
        #expect(balances.filter { flags.contains(wallet: $0.walletID) }.map(\.walletID) == [sample.wallet])
        #expect(flags.contains(transfer: sample.transfer))
        #expect(!flags.contains(wallet: s.joint), "the joint account is real; a sample expense only used it")
        #expect(!flags.contains(transaction: real))
    }

    @Test("E5-S6, T5: clearSampleData leaves exactly the real data: the same live transactions, balances and totals as a ledger that never had the sample")
    func clearLeavesTheRealData() async throws {
        var (test, s, _) = try await Self.household("sample-clear")
        let (never, _, _) = try await Self.household("sample-never")
        let sample = Self.sample(&s)
        try await test.ledger.execute(sample.commands)
        let later: TransactionID = s.ids.next()
        let realLater = s.command(.recordTransaction(transactionID: later, entry: s.expense(700)))
        try await test.ledger.execute(realLater)
        try await never.ledger.execute(realLater)
        try await test.ledger.execute(s.command(.clearSampleData))
        #expect(await test.ledger.sampleData == nil)
        // Sequence numbers differ (the sample's events are in the journal): compare what a list shows.
        let shown = { (rows: [StoredTransaction]) in rows.map { "\($0.transactionID) \($0.walletID) \($0.amount.minorUnits) \($0.date)" } }
        #expect(shown(try await Self.liveTransactions(test.ledger, s)) == shown(try await Self.liveTransactions(never.ledger, s)))
        let viewer = Viewer.member(s.alice)
        #expect(try await test.ledger.totals(visibleTo: viewer) == never.ledger.totals(visibleTo: viewer))
        for wallet in [s.joint, s.euroCard] {
            #expect(try await test.ledger.readModels.wallets.balance(of: wallet) == never.ledger.readModels.wallets.balance(of: wallet))
        }
        let counting = try await test.ledger.readModels.wallets.balances(visibleTo: viewer).filter(\.countsInTotals).map(\.walletID)
        #expect(counting == (try await never.ledger.readModels.wallets.balances(visibleTo: viewer).filter(\.countsInTotals).map(\.walletID)))
    }

    @Test("E5-S6, T5: clearSampleData is refused while a real transaction is in a sample wallet, names it and changes nothing; it clears once that is undone")
    func clearRefusedWhileRealDataDependsOnTheSample() async throws {
        var (test, s, _) = try await Self.household("sample-blocked")
        let sample = Self.sample(&s)
        try await test.ledger.execute(sample.commands)
        var entry = s.expense(300)
        entry.walletID = sample.wallet
        let dependent = s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry))
        try await test.ledger.execute(dependent)
        let flags = await test.ledger.sampleData
        let clear = s.command(.clearSampleData)
        do {
            try await test.ledger.execute(clear)
            Issue.record("the clear was accepted while a real transaction is in the sample wallet")
        } catch {
            #expect(error.code == "undoBlocked" && error.rule == "T5", "\(error)")
            #expect(error.message.contains("\(dependent.commandID)"), "the error names the real command that blocks: \(error)")
        }
        await expectRejection(test.ledger, clear, code: "undoBlocked", rule: "T5")
        #expect(await test.ledger.sampleData == flags)
        #expect(try await Self.liveTransactions(test.ledger, s).count == 4)
        try await test.ledger.execute(s.command(.undo(targetCommandID: dependent.commandID)))
        try await test.ledger.execute(s.command(.clearSampleData))
        #expect(await test.ledger.sampleData == nil)
    }

    @Test("E5-S6, T5: one sample at a time; only executed, undoable commands of the same batch are sample data (a real command recorded before is refused); a clear is permanent and nothing it undid is redone")
    func loadAndClearRules() async throws {
        var (test, s, real) = try await Self.household("sample-rules")
        await expectRejection(test.ledger, s.command(.clearSampleData), code: "noSampleData", rule: "T5")
        let earlierID: TransactionID = s.ids.next()
        let earlier = s.command(.recordTransaction(transactionID: earlierID, entry: s.expense(700)))
        try await test.ledger.execute(earlier)
        await expectRejection(test.ledger, s.command(.loadSampleData(commandIDs: [earlier.commandID])), code: "sampleCommandInvalid", rule: "T5")
        let sameBatch = s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(800)))
        await expectRejection(
            test.ledger, [sameBatch, s.command(.loadSampleData(commandIDs: [sameBatch.commandID, earlier.commandID]))],
            code: "sampleCommandInvalid", rule: "T5")
        let group = s.command(.createGroup(groupID: s.ids.next(), name: "Trip", members: [s.alice, s.bob]))
        try await test.ledger.execute(group)
        await expectRejection(test.ledger, s.command(.loadSampleData(commandIDs: [group.commandID])), code: "sampleCommandInvalid", rule: "T5")
        await expectRejection(test.ledger, s.command(.loadSampleData(commandIDs: [s.ids.next()])), code: "sampleCommandInvalid", rule: "T5")
        await expectRejection(test.ledger, s.command(.loadSampleData(commandIDs: [])), code: "sampleCommandInvalid", rule: "T5")
        let sample = Self.sample(&s)
        let twice = s.command(.loadSampleData(commandIDs: [sample.commands[0].commandID, sample.commands[0].commandID]))
        await expectRejection(test.ledger, Array(sample.commands.dropLast()) + [twice], code: "sampleCommandInvalid", rule: "T5")
        try await test.ledger.execute(sample.commands)
        await expectRejection(test.ledger, s.command(.loadSampleData(commandIDs: [sample.commands[0].commandID])), code: "sampleDataLoaded", rule: "T5")
        // A sample command undone before the clear stays undone, and is not redone after it.
        let undoTransfer = s.command(.undo(targetCommandID: sample.commands[3].commandID))
        try await test.ledger.execute(undoTransfer)
        let clear = s.command(.clearSampleData)
        try await test.ledger.execute(clear)
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: clear.commandID)), code: "notUndoable", rule: "T5")
        for command in sample.commands.dropLast() {
            await expectRejection(test.ledger, s.command(.redo(targetCommandID: command.commandID)), code: "notUndoable", rule: "T5")
        }
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: sample.load.commandID)), code: "notUndoable", rule: "T5")
        #expect(Set(try await Self.liveTransactions(test.ledger, s).map(\.transactionID)) == [real, earlierID])
    }

    @Test("E5-S6: the flags survive a restart from the checkpoint and a replay of the journal")
    func flagsSurviveReopenAndReplay() async throws {
        var (test, s, _) = try await Self.household("sample-replay")
        let sample = Self.sample(&s)
        try await test.ledger.execute(sample.commands)
        let flags = await test.ledger.sampleData
        #expect(flags != nil)
        try await test.ledger.checkpoint()
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.sampleData == flags)
        try await reopened.close()
        let replayed = try LedgerReplay.replay(at: test.directory.appending("ledger"))
        #expect(replayed.state.sample == flags)
    }
}
