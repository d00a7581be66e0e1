import Foundation
import Tally
import TallyInterchange
import TallyModel
import TallyTestSupport
import Testing

/// Swiff 1.1.2 Transaction: the title (`payee`) and subtitle in the CSV export's `payee,subtitle`
/// columns and the hledger description in its `payee | note` convention (Docs/Interchange.md).
@Suite("Transaction title and subtitle in exports (Swiff 1.1.2)")
struct TransactionTitleExportTests {
    @Test("Swiff 1.1.2: the CSV export writes payee and subtitle in their columns; hledger describes a transaction `payee | note`, the payee alone without a note, the note without a payee")
    func exportsCarryTitleAndSubtitle() async throws {
        var s = Scenario()
        let directory = try TemporaryDirectory("tally-title-export")
        defer { directory.remove() }
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: .synchronous))
        try await ledger.execute(s.setup())
        func record(_ payee: String?, subtitle: String?, note: String?, _ minorUnits: Int64) async throws {
            var entry = s.expense(minorUnits)
            entry.payee = payee
            entry.subtitle = subtitle
            entry.note = note
            try await ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
        }
        try await record("Migros|Zürich", subtitle: "Weekly, shop", note: "for the weekend", 2_380)
        try await record("Coop", subtitle: nil, note: nil, 1_150)
        try await record(nil, subtitle: nil, note: "Kiosk", 420)
        let history = try await LedgerHistory.load(from: ledger)
        try await ledger.close()

        let csv = CSVExporter.export(history).split(separator: "\n").map(String.init)
        #expect(csv[0].contains(",original_amount,original_currency,payee,subtitle"))
        #expect(csv.contains { $0.contains(",23.80,for the weekend,") && $0.contains(",,,Migros|Zürich,\"Weekly, shop\"") }, "\(csv)")
        #expect(csv.contains { $0.contains(",11.50,,") && $0.contains(",,,Coop,") }, "\(csv)")
        #expect(csv.contains { $0.contains(",4.20,Kiosk,") && $0.contains("Alice,,,,") }, "\(csv)")

        let journal = try LedgerJournalExporter.export(history)
        #expect(journal.contains("2026-01-05 Migros Zürich | for the weekend  ; id:"), "a | in the payee is no separator: \(journal)")
        #expect(journal.contains("2026-01-05 Coop  ; id:"), "\(journal)")
        #expect(journal.contains("2026-01-05 Kiosk  ; id:"), "\(journal)")
    }
}
