import ArgumentParser
import Foundation
import Tally
import TallyModel
import TallyProjections

/// `tally sample load|clear`: sample data for a demo (Drishti E5-S6). `load` applies a command
/// file (default: the built-in sample for `tally demo`'s household, Sources/TallyCLI/Demo/sample.jsonl)
/// in one batch with `loadSampleData`, so that every list flags it; `clear` takes it back with
/// `clearSampleData` (Docs/CLI.md "Sample data").
struct SampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample", abstract: "Load sample data flagged as sample, or clear it.",
        subcommands: [Load.self, Show.self, Clear.self])

    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a command file as sample data, in one batch (all or nothing).",
            discussion: "The default file is a sample for the household tally demo records: a cash wallet, two expenses and a transfer. Its ids are fixed, so it loads once per ledger; a file of your own needs new ids.")

        @OptionGroup var location: LedgerLocation
        @OptionGroup var key: KeyOptions
        @Option(help: ArgumentHelp("The command file to load as sample; default: the sample built into tally.", valueName: "FILE"))
        var commands: String?

        func run() async throws {
            let path = try location.path()
            try LedgerAccess.requireLedger(at: path)
            let batch = try SampleCommand.batch(commands.map(ApplyCommand.read) ?? PackageResources.sample_jsonl, source: commands ?? "the built-in sample.jsonl")
            let ledger = try await LedgerAccess.open(at: path, create: false, encryption: try key.encryption())
            do {
                try await ledger.execute(batch)
            } catch {
                try? await ledger.close()
                throw CLIError.ledger(error, at: path)
            }
            try await LedgerAccess.close(ledger, at: path)
            var results = ResultLines()
            results.line("loaded \(batch.count - 1) sample commands into \(path); tally sample clear \(path) takes them back")
            try results.requireDelivered(outcome: "the sample data was loaded into \(path)")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what the sample data loaded now created: its wallets, transactions and transfers.",
            discussion: "What a host reads from Ledger.sampleData to flag entries in its lists. Reads the journal.")

        @OptionGroup var location: LedgerLocation
        @OptionGroup var key: KeyOptions
        @Flag(help: "Print JSON: {\"loadCommandID\",\"commandIDs\",\"wallets\",\"transactions\",\"transfers\"}, or null when no sample is loaded.")
        var json = false

        func run() async throws {
            let path = try location.path()
            let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
            guard let sample = history.state.sample else {
                try Terminal.line(json ? "null" : "no sample data is loaded in \(path)")
                return
            }
            var wallets: [WalletID] = []
            var transactions: [TransactionID] = []
            var transfers: [TransferID] = []
            for key in sample.keys {
                switch key {
                case .wallet(let id): wallets.append(id)
                case .transaction(let id): transactions.append(id)
                case .transfer(let id): transfers.append(id)
                default: break
                }
            }
            wallets.sort()
            transactions.sort()
            transfers.sort()
            if json {
                let ids = { (ids: [CustomStringConvertible]) in CanonicalJSON.array(ids.map { .string($0.description) }) }
                try Terminal.line(CanonicalJSON.object([
                    "loadCommandID": .string(sample.loadCommandID.description), "commandIDs": ids(sample.commandIDs),
                    "wallets": ids(wallets), "transactions": ids(transactions), "transfers": ids(transfers),
                ]).text)
                return
            }
            var lines = ["sample data loaded by command \(sample.loadCommandID) (\(sample.commandIDs.count) commands)"]
            lines += wallets.map { "wallet \(history.walletName($0)) (\($0))" }
            for id in transactions {
                let details = history.state.transactions[id]?.details
                lines.append("transaction \(id)" + (details.map { ": \($0.date) \($0.amount.formatted()) from \(history.walletName($0.walletID))" } ?? ""))
            }
            lines += transfers.map { "transfer \($0)" }
            try Terminal.line(lines.joined(separator: "\n"))
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Undo every sample command in one batch, or nothing when real data depends on the sample.")

        @OptionGroup var location: LedgerLocation
        @OptionGroup var key: KeyOptions
        @Option(name: .customLong("as"), help: ArgumentHelp("The member who clears it (name or id); default the household's admin.", valueName: "PERSON"))
        var actor: String?
        @Option(name: .customLong("recorded-at"), help: "When the command is recorded (UTC ISO 8601); default now.") var recordedAt: String?

        func run() async throws {
            let path = try location.path()
            let encryption = try key.encryption()
            let history = try LedgerAccess.history(at: path, encryption: encryption)
            guard let admin = history.state.household?.admin else { throw CLIError("\(path): the ledger holds no household yet") }
            let person = try actor.map { try history.person($0, option: "--as") } ?? admin
            let command = Command(
                commandID: try Identifiers.parse(nil, option: "--command-id"), actor: person,
                recordedAt: try Identifiers.timestamp(recordedAt), action: .clearSampleData)
            let ledger = try await LedgerAccess.open(at: path, create: false, encryption: encryption)
            do {
                try await ledger.execute(command)
            } catch {
                try? await ledger.close()
                throw CLIError.ledger(error, at: path)
            }
            try await LedgerAccess.close(ledger, at: path)
            var results = ResultLines()
            results.line("cleared the sample data of \(path)")
            try results.requireDelivered(outcome: "the sample data of \(path) was cleared")
        }
    }

    /// The commands of `bytes` and, last, the `loadSampleData` naming them all, by the first
    /// one's actor at the last one's time.
    static func batch(_ bytes: [UInt8], source: String) throws -> [Command] {
        let parsed = try DemoCommand.commands(in: bytes, source: source)
        guard let first = parsed.first, let last = parsed.last else { throw CLIError("\(source): no commands") }
        let load = Command(
            commandID: try Identifiers.parse(nil, option: "--command-id"), actor: first.actor, recordedAt: last.recordedAt,
            action: .loadSampleData(commandIDs: parsed.map(\.commandID)))
        return parsed + [load]
    }
}
