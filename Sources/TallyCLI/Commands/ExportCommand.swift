import ArgumentParser
import Foundation
import SystemPackage
import TallyInterchange

/// `tally export`: CSV, JSON backup or a ledger/hledger journal.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export as CSV, a JSON backup or a ledger (hledger) journal.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json, ledger }

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Option(help: "csv, json (full backup) or ledger.") var format: Format
    @Option(help: ArgumentHelp("Write to FILE instead of stdout.", valueName: "FILE")) var output: String?

    func run() async throws {
        let path = try location.path()
        let encryption = try key.encryption()
        let data: Data
        switch format {
        case .csv:
            data = Data(CSVExporter.export(try LedgerAccess.history(at: path, encryption: encryption)).utf8)
        case .ledger:
            data = Data(LedgerJournalExporter.export(try LedgerAccess.history(at: path, encryption: encryption)).utf8)
        case .json:
            try LedgerAccess.requireLedger(at: path)
            do { data = try LedgerBackup.make(from: FilePath(path), encryption: encryption).encoded() + Data("\n".utf8) } catch {
                throw CLIError.interchange(error, at: path)
            }
        }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: data) else { throw CLIError("\(output): cannot write the output file") }
        } else {
            Terminal.write(Array(data))
        }
    }
}
