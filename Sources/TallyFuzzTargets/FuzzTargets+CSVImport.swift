import Tally
import TallyInterchange
import TallyModel

extension FuzzTargets {
    /// CSV import target: the input bytes are a CSV file planned by
    /// `CSVImporter.plan(bytes:state:)` (invalid UTF-8 is refused, not replaced) against a small in-memory ledger state: once
    /// per wallet currency (CHF: 2 decimals, JPY: 0, BHD: 3) with the default column names, and
    /// once with the German mapping `Datum;Betrag;Text;Kategorie;Konto;Empfänger;Referenz` (an account
    /// column naming the wallet of each row, a payee, an external id) and no default wallet, and
    /// once with the default columns, a category mapping and `--duplicates replace`.
    ///
    /// Asserts: planning returns a plan or throws `InterchangeError` (typed) and never traps;
    /// every data row gets exactly one result; one command per inserted or replaced row (the
    /// state holds no transaction, so nothing can be replaced), each recording a positive
    /// amount in its wallet's currency; a row with an external id gets the id derived from its
    /// wallet and that id; a plan with a failed row has no batch (all rows or none).
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
        german.mapping.account = "Konto"
        german.mapping.payee = "Empfänger"
        german.mapping.externalID = "Referenz"
        german.walletName = nil
        importers.append(german)
        var replacing = CSVImporter(walletName: CSVImportLedger.wallets[0].name, recordedAt: recordedAt)
        replacing.categoryMapping = ["Food": "Groceries", "Lohn": "Salary"]
        replacing.duplicates = .replace
        importers.append(replacing)
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
            try require(plan.commands.count == plan.inserted && plan.replaced == 0,
                        "\(plan.inserted) rows inserted and \(plan.replaced) replaced but \(plan.commands.count) commands (and nothing to replace)")
            try require((try? plan.batch()) == nil ? plan.failed > 0 : plan.failed == 0,
                        "\(plan.failed) failed rows but batch() \(plan.failed > 0 ? "returned commands" : "threw")")
            let externalColumn = importer.mapping.externalID.flatMap { name in table.header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() } }
            let insertedLines = plan.rows.filter { $0.status == .inserted }.map(\.line)
            for (command, line) in zip(plan.commands, insertedLines) {
                guard case .recordTransaction(let id, let entry) = command.action else {
                    throw FuzzFinding("the import planned a command other than recordTransaction: \(command.action)")
                }
                let currency = state.wallets[entry.walletID]?.currency
                try require(entry.amount.minorUnits > 0 && entry.amount.currency == currency,
                            "planned amount \(entry.amount) for a \(currency.map(String.init(describing:)) ?? "?") wallet")
                if let externalColumn, let row = table.rowLines.firstIndex(of: line) {
                    let externalID = table.rows[row][externalColumn].trimmingCharacters(in: .whitespaces)
                    try require(externalID.isEmpty || id == CSVImporter.transactionID(externalID: externalID, wallet: entry.walletID),
                                "line \(line): external id \"\(externalID)\" but transaction id \(id)")
                }
            }
        }
    }
}
