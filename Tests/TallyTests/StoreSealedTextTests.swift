import Foundation
import TallyModel
import TallyProjections
@testable import TallyStore
import TallyTestSupport
import Testing

/// Issue 32: a personal text read sealed (its owner's key not held here, as on a sync server)
/// keeps its bytes through the read-side store, so validation that reads a record back from the
/// store (an edit keeping a note, an undo carrying earlier details) never writes it redacted.
@Suite("Sealed personal texts in the store")
struct StoreSealedTextTests {
    typealias S = Scenario

    @Test("Issue 32, P1: a transaction's sealed note, payee and subtitle and a transfer's sealed note are read back from the store sealed, with their bytes and owners; a list row shows the note sealed, and nothing sealed is searchable")
    func sealedTextsSurviveTheStore() throws {
        let directory = try TemporaryDirectory("tally-store-sealed-texts")
        defer { directory.remove() }
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 10_000)
        let savings = s.wallet("Savings")
        let note = PersonalText.sealed([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x6e, 0x6f, 0x74, 0x65], owner: S.bob)
        let payee = PersonalText.sealed([0x70, 0x61, 0x79, 0x65, 0x65], owner: S.alice)
        let subtitle = PersonalText("readable", owner: S.alice)
        var details = S.details(.expense, 1_000, s.base, wallet: joint, category: S.groceries, on: "2026-02-03", payer: S.alice)
        details = TransactionDetails(
            kind: details.kind, amount: details.amount, walletID: details.walletID, categoryID: details.categoryID, date: details.date,
            note: note, tags: [], payer: details.payer, split: nil)
        let transactionID: TransactionID = s.id()
        s.add(.transactionRecorded(TransactionRecorded(transactionID: transactionID, details: details, payee: payee, subtitle: subtitle)))
        let transferID: TransferID = s.id()
        let transferNote = PersonalText.sealed([0xff, 0x00, 0x7f], owner: S.bob)
        s.add(.transferRecorded(TransferRecorded(
            transferID: transferID, fromWalletID: joint, toWalletID: savings, amountSent: Money(minorUnits: 500, currency: s.base), amountReceived: Money(minorUnits: 500, currency: s.base),
            date: Scenario.date("2026-02-04"), note: transferNote)))

        let store = try LedgerStore(path: directory.appending("read-side.sqlite").string)
        defer { store.close() }
        try store.replaceAll(from: StoreSnapshot(readModels: Projections(), personNames: [:]), coverage: StoreCoverage(sequenceNumber: 0, chainValue: [UInt8](repeating: 0, count: 32)))
        let rows = try StoreRows(StoreRowsTests.changes(s.events), from: StoreSnapshot(readModels: s.readModels, personNames: [:]))
        try store.commit(StoreRowsTests.changes(s.events), rows: rows, coverage: StoreCoverage(sequenceNumber: UInt64(s.events.count), chainValue: [UInt8](repeating: 1, count: 32)))

        let record = try #require(try store.read { database in try StoreTransactionRecord.read(key: transactionID.storeValue, in: database, path: "") })
        #expect(record.details.note == note && record.details.note?.isSealed == true)
        #expect(record.payee == payee && record.subtitle == subtitle)
        let transfer = try #require(try store.read { database in try StoreTransferRecord.read(key: transferID.storeValue, in: database, path: "") })
        #expect(transfer.transfer.note == transferNote)

        let page = try store.transactions(TransactionQuery(visibleTo: .audit))
        let row = try #require(page.rows.first { $0.transaction.transactionID == transactionID })
        #expect(row.note == note && row.note?.description == PersonalText.sealedMarker)
        #expect(row.transaction.payee == payee)
        var search = TransactionQuery(visibleTo: .audit)
        search.text = "note"
        #expect(try store.transactions(search).rows.isEmpty, "a sealed text is not searchable (its bytes are no words)")
        search.text = "readable"
        #expect(try store.transactions(search).rows.map(\.transaction.transactionID) == [transactionID], "the control: a readable subtitle is")
    }
}
