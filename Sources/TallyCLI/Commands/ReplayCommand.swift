import ArgumentParser
import Foundation
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally replay`: rebuilds the read models from the journal alone and prints canonical JSON.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild the read models from the journal (ignoring checkpoints); canonical JSON.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions

    @Option(help: ArgumentHelp("Stop after this sequence number.", valueName: "SEQ")) var upto: UInt64?
    @Option(name: .customLong("as-of"), help: ArgumentHelp("Only events recorded on or before this UTC date.", valueName: "DATE")) var asOf: String?
    @Option(help: "One read model: wallets, debts, budgets or networth.") var model: ReadModelName?
    @Option(help: ArgumentHelp("Write to FILE instead of stdout.", valueName: "FILE")) var output: String?

    func run() async throws {
        let path = try location.path()
        let json = try Self.canonicalJSON(
            path: path, upto: upto, asOf: asOf.map { try LedgerAccess.date($0, option: "--as-of") },
            model: model, encryption: try key.encryption())
        let bytes = json.serialized() + [UInt8(ascii: "\n")]
        if let output {
            try OutputFile.write(bytes, to: output)
        } else {
            try Terminal.write(bytes)
        }
    }

    /// The replayed read models (all, or one) as canonical JSON.
    static func canonicalJSON(
        path: String, upto: UInt64?, asOf: LocalDate?, model: ReadModelName?, encryption: JournalEncryptionOption
    ) throws -> CanonicalJSON {
        let progress = ProgressLine("replay")
        defer { progress.finish() }
        var through = upto
        if let asOf {
            let full = try LedgerAccess.history(at: path, through: upto, encryption: encryption)
            through = try LedgerAccess.lastSequence(recordedOnOrBefore: asOf, in: full)
        }
        let readModels = try Replayer.readModels(at: path, through: through, encryption: encryption) { done, total in
            progress.update(done: done, total: total)
        }
        do {
            switch model {
            case nil: return try readModels.canonicalJSON()
            case .wallets: return try readModels.wallets.canonicalJSON()
            case .debts: return try readModels.debts.canonicalJSON()
            case .budgets: return try readModels.budgets.canonicalJSON()
            case .networth: return try readModels.netWorth.canonicalJSON()
            }
        } catch {
            throw CLIError("\(path): the read models cannot be written: \(error.description)")
        }
    }
}

/// The read models `replay --model` can print.
enum ReadModelName: String, ExpressibleByArgument, CaseIterable {
    case wallets, debts, budgets, networth
}
