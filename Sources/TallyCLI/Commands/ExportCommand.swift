import ArgumentParser
import Foundation
import SystemPackage
import TallyInterchange
import TallyModel

/// `tally export`: CSV (transactions or another entity, for a viewer), JSON backup, a
/// ledger/hledger journal, or one person's data.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export as CSV, a JSON backup, a ledger (hledger) journal, or one person's data (JSON).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json, ledger, person }

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Option(help: "csv, json (full backup), ledger, or person (everything --person can see, TECH-009).") var format: Format
    @Option(help: ArgumentHelp("--format person: the person whose data it exports (UUID). --format csv: only what this person may see (G7), by id or name.", valueName: "ID")) var person: String?
    @Option(name: .customLong("from"), help: ArgumentHelp("--format csv: the first business date (YYYY-MM-DD).", valueName: "DATE")) var from: String?
    @Option(name: .customLong("to"), help: ArgumentHelp("--format csv: the last business date (YYYY-MM-DD).", valueName: "DATE")) var to: String?
    @Option(name: .customLong("wallet"), help: ArgumentHelp("--format csv: only this wallet (name or id; repeatable).", valueName: "WALLET")) var wallets: [String] = []
    @Option(name: .customLong("category"), help: ArgumentHelp("--format csv: only this category (name or id; repeatable).", valueName: "CATEGORY")) var categories: [String] = []
    @Option(help: ArgumentHelp(
        "--format csv: what to export: transactions (default), wallets, goals, settlements, budgets, group (--group), people, groups, subscriptions.",
        valueName: "ENTITY")) var entity: CSVEntity = .transactions
    @Option(help: ArgumentHelp("--entity group: the group (name or id).", valueName: "GROUP")) var group: String?
    @Option(name: .customLong("number-format"), help: ArgumentHelp("--format csv: plain (1234.50, default) or swiss (1'234.50).", valueName: "FORMAT"))
    var numberFormat: CSVExporter.NumberFormat = .plain
    @Option(name: .customLong("on"), help: ArgumentHelp(
        "--entity wallets: balances at the end of DATE (default: after every entry); goals, subscriptions: figures on DATE (default today, UTC).",
        valueName: "DATE")) var on: String?
    @OptionGroup var viewer: ViewerOption
    @Option(help: ArgumentHelp("Write to FILE instead of stdout.", valueName: "FILE")) var output: String?
    @OptionGroup var backupKey: BackupKeyOptions
    @Flag(name: .customLong("without-keys"), help: "--format json: hold no personal keys (names and notes restore only over the ledger that has them).")
    var withoutKeys = false

    func validate() throws {
        try validateCSVOptions()
    }

    func run() async throws {
        let path = try location.path()
        let encryption = try key.encryption()
        let data: Data
        if format != .csv && (from != nil || to != nil || !wallets.isEmpty || !categories.isEmpty) {
            throw CLIError("--from, --to, --wallet and --category filter --format csv only")
        }
        switch format {
        case .csv:
            let history = try LedgerAccess.history(at: path, encryption: encryption, allowDamaged: damage.allowDamaged)
            data = Data(try csv(history, path: path).utf8)
        case .ledger:
            data = Data(try LedgerJournalExporter.export(LedgerAccess.history(at: path, encryption: encryption, allowDamaged: damage.allowDamaged)).utf8)
        case .person:
            guard let person else { throw CLIError("--format person needs --person ID") }
            let id: PersonID = try Identifiers.parse(person, option: "--person")
            do {
                data = try PersonalDataExport.make(for: id, from: try LedgerAccess.history(at: path, encryption: encryption, allowDamaged: damage.allowDamaged)).encoded() + Data("\n".utf8)
            } catch let error as InterchangeError {
                throw CLIError.interchange(error, at: path)
            }
        case .json:
            try LedgerAccess.requireLedger(at: path)
            let protection = try backupKey.protection(withoutKeys: withoutKeys)
            do { data = try LedgerBackup.make(from: FilePath(path), encryption: encryption, protection: protection).encoded() + Data("\n".utf8) } catch {
                throw CLIError.interchange(error, at: path)
            }
        }
        if let output {
            try OutputFile.write(Array(data), to: output)
        } else {
            try Terminal.write(Array(data))
        }
    }
}
