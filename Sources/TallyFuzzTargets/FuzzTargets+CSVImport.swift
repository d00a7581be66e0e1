import Tally
import TallyInterchange
import TallyModel

extension FuzzTargets {
    /// CSV import target: the input bytes are a CSV file planned by
    /// `CSVImporter.plan(bytes:state:)` (invalid UTF-8 is refused, not replaced) against a small in-memory ledger state: once
    /// per wallet currency (CHF: 2 decimals, JPY: 0, BHD: 3) with the default column names, and
    /// once with the German mapping `Datum;Betrag;Text;Kategorie`.
    ///
    /// Asserts: planning returns a plan or throws `InterchangeError` (typed) and never traps;
    /// every data row gets exactly one result; one command per inserted row, each with a
    /// positive amount in the wallet's currency; a plan with a failed row has no batch (all
    /// rows or none).
    /// - Throws: ``FuzzFinding`` when a property fails.
    public static func csvImport(_ data: UnsafeRawBufferPointer) throws(FuzzFinding) {
        let bytes = Array(data)
        let state = CSVImportLedger.state
        let recordedAt = Timestamp(millisecondsSinceEpoch: 1_771_400_000_000)
        var importers = CSVImportLedger.wallets.map { CSVImporter(walletName: $0.name, recordedAt: recordedAt) }
        var german = CSVImporter(walletName: CSVImportLedger.wallets[0].name, recordedAt: recordedAt)
        german.mapping.date = "Datum"
        german.mapping.amount = "Betrag"
        german.mapping.note = "Text"
        german.mapping.category = "Kategorie"
        german.mapping.type = nil
        importers.append(german)
        for importer in importers {
            let plan: CSVImporter.Plan
            do {
                plan = try importer.plan(bytes: bytes, state: state)
            } catch {
                continue
            }
            let table: CSVTable
            do {
                table = try CSVTable.parse(bytes: bytes)
            } catch {
                throw FuzzFinding("a plan was made from a file CSVTable rejects: \(error)")
            }
            try require(plan.rows.count == table.rows.count,
                        "\(table.rows.count) data rows but \(plan.rows.count) row results")
            try require(plan.commands.count == plan.inserted,
                        "\(plan.inserted) rows inserted but \(plan.commands.count) commands")
            try require((try? plan.batch()) == nil ? plan.failed > 0 : plan.failed == 0,
                        "\(plan.failed) failed rows but batch() \(plan.failed > 0 ? "returned commands" : "threw")")
            let currency = CSVImportLedger.wallets.first { $0.name == importer.walletName }?.currency
            for command in plan.commands {
                guard case .recordTransaction(_, let entry) = command.action else {
                    throw FuzzFinding("the import planned a command other than recordTransaction: \(command.action)")
                }
                try require(entry.amount.minorUnits > 0 && entry.amount.currency == currency,
                            "planned amount \(entry.amount) for a \(currency.map(String.init(describing:)) ?? "?") wallet")
            }
        }
    }
}
