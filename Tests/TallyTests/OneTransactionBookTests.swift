import Foundation
import SystemPackage
@testable import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore
import TallyTestSupport
import Testing

/// Issue 28 item 1, "one fold, one store": each event is folded once, by the validation state
/// together with its read models, and a transaction is one record in one book that validation,
/// the read models and the store writer all read.
@Suite("One fold: one transaction book", .serialized)
struct OneTransactionBookTests {
    /// The scenario's household, in a ledger under `directory`, with an expense category "Pets".
    static func householdWithPets(in directory: TemporaryDirectory, _ s: inout Scenario) async throws -> (Ledger, CategoryID) {
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: .checkpointsOnRequest())
        try await ledger.execute(s.setup())
        let pets: CategoryID = s.ids.next()
        try await ledger.execute(s.command(.createCategory(
            categoryID: pets, name: "Pets", group: .expense, budgetType: .wants, shareable: true, icon: nil, color: nil)))
        return (ledger, pets)
    }

    @Test("issue 28 item 1, T1-T3, S6, 18.4, W6: after a checkpoint the store's history holds each transaction and each transfer once (one entry keyed by its id, in its book's space, none in any other), with what validation needs of it (a transaction's split with people and covering settlement, a transfer's edited note); reopened, validation reads them from there and the state equals a replay")
    func archiveHoldsEachTransactionOnce() async throws {
        let directory = try TemporaryDirectory("tally-one-book-archive")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var s = Scenario()
        let ledger = try await Ledger.open(at: path, options: .checkpointsOnRequest())
        try await ledger.execute(s.setup())
        let personal: TransactionID = s.ids.next()
        let shared: TransactionID = s.ids.next()
        let split: TransactionID = s.ids.next()
        let settlement: SettlementID = s.ids.next()
        let transfer: TransferID = s.ids.next()
        try await ledger.execute(s.command(.recordTransaction(transactionID: personal, entry: s.expense(900))))
        try await ledger.execute(s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000),
            amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-08"), note: "to the card")))
        try await ledger.execute(s.command(.editTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(2_000),
            amountReceived: Scenario.eur(2_100), date: Scenario.date("2026-01-08"), note: "more to the card")))
        try await ledger.execute(s.command(.recordTransaction(transactionID: shared, entry: s.expense(4_000, shared: true, payer: s.alice))))
        var withPeople = s.expense(3_000, payer: s.alice)
        withPeople.splitWith = .equal([s.alice, s.bob])
        try await ledger.execute(s.command(.recordTransaction(transactionID: split, entry: withPeople)))
        try await ledger.execute(s.command(.editTransaction(transactionID: personal, entry: s.expense(950))))
        try await ledger.execute(s.command(.recordSettlement(
            settlementID: settlement, from: s.bob, to: s.alice, amount: Scenario.chf(2_000), date: Scenario.date("2026-01-09"),
            covers: [.transaction(shared)], isAdvance: false, groupID: nil)))
        try await ledger.checkpoint()
        let checkpoint = await ledger.lastSequenceNumber
        try await ledger.close()

        let entries = try StoredCheckpoints.withStore(at: path) { store in
            try ArchiveSpace.allCases.flatMap { space in
                try store.historyEntries(space: space.rawValue, from: nil, through: nil).map { (space: space.rawValue, key: $0.key, value: $0.value) }
            }
        }
        #expect(try StoredCheckpoints.checkpoint(at: path)?.sequenceNumber == checkpoint)
        #expect(entries.count > 10, "the control: the checkpoint wrote the history to the store (\(entries.count) entries)")
        for id in [personal, shared, split] {
            let keyed = entries.filter { $0.key == id.archiveBytes }
            #expect(keyed.map(\.space) == [ArchiveSpace.transactions.rawValue], "\(id): one entry, in the one book's space")
        }
        #expect(entries.filter { $0.key == transfer.archiveBytes }.map(\.space) == [ArchiveSpace.walletTransfers.rawValue],
                "the transfer: one entry, in the wallet book's space")

        let reopened = try await Ledger.open(at: path, options: .checkpointsOnRequest())
        #expect(reopened.openReport.checkpointSequenceNumber == checkpoint && reopened.openReport.eventsReplayed == 0)
        #expect(await reopened.archivedEntriesInMemory == 0, "everything checkpointed is read from the store")
        let state = await reopened.state
        #expect(state.debts.settlement(coveringTransaction: shared) == settlement, "S6: the covering settlement is in the debt book")
        #expect(state.transactions[split]?.splitWith == .equal([s.alice, s.bob]), "18.4: the split as entered is in the book")
        #expect(state.transactions[personal]?.details.amount == Scenario.chf(950) && state.transactions[personal]?.isLive == true)
        #expect(state.transactions[personal] == state.readModels.transactions[personal], "one book: validation reads the read models' record")
        #expect(state.transfers[transfer]?.transfer.note?.text == "more to the card" && state.transfers[transfer]?.transfer.amountSent == Scenario.chf(2_000))
        let balances = try await reopened.readModels.wallets.balances()
        #expect(balances.first { $0.walletID == s.joint }?.balance == Scenario.chf(100_000 - 950 - 4_000 - 3_000 - 2_000), "W3: the edited transfer counts once")
        await expectRejection(reopened, s.command(.recordTransfer(
            transferID: transfer, fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1), amountReceived: Scenario.eur(1),
            date: Scenario.date("2026-01-08"), note: nil)), code: "duplicateID", rule: "G5")
        await expectRejection(reopened, s.command(.editTransaction(transactionID: shared, entry: s.expense(10, shared: true))), code: "editOfSettledTransaction", rule: "T2")
        await expectRejection(reopened, s.command(.recordTransaction(transactionID: personal, entry: s.expense(10))), code: "duplicateID", rule: "G5")
        let replayed = try LedgerReplay.replay(at: path)
        #expect(state == replayed.state, "the state (with its read models) equals a replay")
        try await reopened.close()
    }

    @Test("C3, issue 28 item 1: deleting a category with a reassignment target moves its transactions in the one book and in the store: they are listed under the target and none under the deleted category, the month totals moved with them, and the store equals a rebuild table by table")
    func reassignmentMovesTheStoreRows() async throws {
        let directory = try TemporaryDirectory("tally-one-book-reassign")
        defer { directory.remove() }
        var s = Scenario()
        let (ledger, pets) = try await Self.householdWithPets(in: directory, &s)
        var moved: [TransactionID] = []
        for units: Int64 in [900, 1_100, 2_500] {
            let id: TransactionID = s.ids.next()
            moved.append(id)
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: s.expense(units, category: pets))))
        }
        let stays: TransactionID = s.ids.next()
        try await ledger.execute(s.command(.recordTransaction(transactionID: stays, entry: s.expense(700))))
        var underPets = TransactionQuery(visibleTo: .audit)
        underPets.categoryIDs = [pets]
        #expect(try await ledger.transactions(underPets).rows.count == 3, "the control: listed under Pets before the deletion")
        try await ledger.execute(s.command(.deleteCategory(categoryID: pets, reassignTo: s.groceries)))

        #expect(try await ledger.transactions(underPets).rows.isEmpty)
        var underGroceries = TransactionQuery(visibleTo: .audit)
        underGroceries.categoryIDs = [s.groceries]
        #expect(Set(try await ledger.transactions(underGroceries).rows.map(\.transaction.transactionID)) == Set(moved + [stays]))
        let totals = try await ledger.categoryTotals(byMonth: TransactionQuery(visibleTo: .audit))
        #expect(!totals.contains { $0.categoryID == pets })
        #expect(totals.first { $0.categoryID == s.groceries }?.total == Scenario.chf(5_200))
        for id in moved {
            #expect(await ledger.state.transactions[id]?.details.categoryID == s.groceries)
        }
        let live = try #require(await ledger.flushedStore()).contentDigests()
        _ = try await ledger.rebuildReadSide()
        let rebuilt = try #require(await ledger.flushedStore()).contentDigests()
        for table in rebuilt.tables.keys.sorted() {
            #expect(live.tables[table] == rebuilt.tables[table], "table \(table) differs from a rebuild")
        }
        try await ledger.close()
    }

    @Test("C3, T5: undoing an edit that moved a transaction out of a category deleted since is refused (categoryInactive): the deletion moved the category's other transactions and it takes no new ones")
    func undoIntoADeletedCategoryIsRefused() async throws {
        let directory = try TemporaryDirectory("tally-one-book-undo-into-deleted")
        defer { directory.remove() }
        var s = Scenario()
        let (ledger, pets) = try await Self.householdWithPets(in: directory, &s)
        let moved: TransactionID = s.ids.next()
        let stays: TransactionID = s.ids.next()
        try await ledger.execute(s.command(.recordTransaction(transactionID: moved, entry: s.expense(900, category: pets))))
        try await ledger.execute(s.command(.recordTransaction(transactionID: stays, entry: s.expense(500, category: pets))))
        let edit = s.command(.editTransaction(transactionID: moved, entry: s.expense(900)))
        try await ledger.execute(edit)
        try await ledger.execute(s.command(.deleteCategory(categoryID: pets, reassignTo: s.groceries)))
        await expectRejection(ledger, s.command(.undo(targetCommandID: edit.commandID)), code: "categoryInactive", rule: "C3")
        #expect(await ledger.state.transactions[moved]?.details.categoryID == s.groceries)
        #expect(await ledger.state.transactions[stays]?.details.categoryID == s.groceries)
        try await ledger.close()
    }
}
