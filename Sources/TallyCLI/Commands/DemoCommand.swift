import ArgumentParser
import Foundation
import SystemPackage
import Tally
import TallyInterchange

/// `tally demo`: applies the example household (Sources/TallyCLI/Demo/household.jsonl, compiled
/// into the binary, so it runs from any directory) into a fresh ledger and prints balances,
/// debts and the audit summary: what the README's quick start runs.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Record the example household into a new ledger and show what tally sees.")

    @Option(help: ArgumentHelp("Where to create the ledger; default: a new temporary directory.", valueName: "DIR")) var ledger: String?
    @Option(help: ArgumentHelp("The command file to apply; default: the example household built into tally.", valueName: "FILE"))
    var commands: String?
    @Flag(help: "Then load the built-in sample data, flagged as sample (tally sample clear takes it back).") var sample = false

    func run() async throws {
        let path = ledger ?? FileManager.default.temporaryDirectory.appendingPathComponent("tally-demo-\(UUID().uuidString.prefix(8))").path
        try LedgerAccess.settleSwap(at: path)
        if LedgerDirectory(FilePath(path)).holdsLedger() {
            throw CLIError("\(path): a ledger already exists here; pick another --ledger")
        }
        let bytes = try commands.map(ApplyCommand.read) ?? PackageResources.household_jsonl
        let source = commands ?? "the built-in household.jsonl"
        let parsed = try Self.commands(in: bytes, source: source)
        let sample = try sample ? SampleCommand.batch(PackageResources.sample_jsonl, source: "the built-in sample.jsonl") : []
        let ledgerActor = try await LedgerAccess.open(at: path, create: true, encryption: nil)
        do {
            for command in parsed { try await ledgerActor.execute(command) }
            if !sample.isEmpty { try await ledgerActor.execute(sample) }
        } catch {
            try? await ledgerActor.close()
            throw CLIError.ledger(error, at: path)
        }
        try await LedgerAccess.close(ledgerActor, at: path)
        let history = try LedgerAccess.history(at: path, encryption: nil)
        let household = history.state.household?.name ?? "?"
        var results = ResultLines()
        results.line("Recorded \(parsed.count) commands (\(history.eventCount) events) of household \(household) into \(path)"
            + (sample.isEmpty ? "" : ", then \(sample.count - 1) sample commands flagged as sample") + "\n")
        results.line("== Balances")
        results.line(try Reports.balances(history, asOf: nil, path: path))
        results.line("\n== Debts")
        results.line(try Reports.debts(history, path: path))
        results.line("\n== Audit")
        let audit = try AuditSummary.run(path: path, encryption: nil)
        results.line(audit.text)
        results.line("\nTry: tally log \(path) | tally networth \(path) | tally replay \(path)")
        try results.requireDelivered(outcome: "the demo ledger was recorded at \(path)")
        if !audit.isClean { throw ExitCode(1) }
    }

    /// The commands of a command file, or an error naming `source` and the line.
    static func commands(in bytes: [UInt8], source: String) throws -> [Command] {
        var parsed: [Command] = []
        for (number, line) in CommandParser.commandLines(in: bytes) {
            do { parsed.append(try CommandParser.parse(lineBytes: line)) } catch {
                throw CLIError("\(source): line \(number): \(error.description)")
            }
        }
        return parsed
    }
}
