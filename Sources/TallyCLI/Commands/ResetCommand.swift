import ArgumentParser
import Foundation
import SystemPackage
import TallyInterchange
import TallyModel

/// `tally reset`: start over (seed 001 US-704), keeping what the user chooses; the old ledger
/// is kept beside the new one (Docs/Editing.md "Owning one's data").
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Start over: a new ledger keeping the household, its people and what --keep names.",
        discussion: "Transactions, transfers, templates, settlements and periods are not kept. The old ledger is kept beside the new one as DIR.replaced-N. Needs --confirm DELETE.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Option(help: ArgumentHelp("What to keep besides the household and its people: none, or a comma-separated list of wallets, categories, budgets, groups (default wallets).", valueName: "LIST"))
    var keep: String = "wallets"
    @Option(help: ArgumentHelp("Type DELETE to confirm.", valueName: "WORD")) var confirm: String?
    @Option(help: ArgumentHelp("The date wallets are opened again (YYYY-MM-DD); default: the UTC date of --recorded-at.", valueName: "DATE"))
    var on: String?
    @Option(name: .customLong("recorded-at"), help: "When the commands are recorded (UTC ISO 8601); default now.") var recordedAt: String?

    func run() async throws {
        let path = try location.path()
        try LedgerAccess.requireLedger(at: path)
        let kept = try Self.parseKeep(keep)
        guard confirm == "DELETE" else {
            let names = LedgerReset.Keep.names.filter { kept.contains($0.1) }.map(\.0)
            throw CLIError("reset deletes every transaction, transfer, template, settlement and period of \(path) (kept: the household, its people\(names.isEmpty ? "" : ", " + names.joined(separator: ", "))); to go ahead, add --confirm DELETE")
        }
        let timestamp = try Identifiers.timestamp(recordedAt)
        let date: LocalDate
        if let on { date = try LedgerAccess.date(on, option: "--on") } else {
            do { date = try timestamp.utcDate() } catch { throw CLIError("--recorded-at: \(error)") }
        }
        let encryption = try key.encryption()
        let report: LedgerReset.Report
        do {
            report = try await LedgerReset.reset(ledgerAt: FilePath(path), keeping: kept, on: date, recordedAt: timestamp, encryption: encryption)
        } catch {
            throw CLIError.interchange(error, at: path)
        }
        var results = ResultLines()
        results.line("reset \(path): \(report.commandCount) commands recorded the kept facts into a new ledger")
        results.line("the old ledger is kept at \(report.replacedLedgerKeptAt.string); delete it once you no longer need it (it holds personal keys)")
        try results.requireDelivered(outcome: "\(path) was reset; the old ledger is at \(report.replacedLedgerKeptAt.string)")
    }

    static func parseKeep(_ text: String) throws -> LedgerReset.Keep {
        var kept: LedgerReset.Keep = []
        guard text != "none" else { return kept }
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let entry = LedgerReset.Keep.names.first(where: { $0.0 == name }) else {
                throw CLIError("--keep \(name): keep none, or any of \(LedgerReset.Keep.names.map(\.0).joined(separator: ", ")), comma-separated")
            }
            kept.insert(entry.1)
        }
        return kept
    }
}
