import ArgumentParser
import Foundation
import TallyProjections

/// `tally diff`: compares the replayed read models of two ledgers.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: "Compare the replayed read models of two ledgers.",
        discussion: "Exit 0 identical, 1 different, 2 could not run.")

    @Argument(help: ArgumentHelp("The first ledger.", valueName: "LEDGER_A")) var first: String
    @Argument(help: ArgumentHelp("The second ledger.", valueName: "LEDGER_B")) var second: String
    @OptionGroup var key: KeyOptions

    func run() async throws {
        let encryption = try key.encryption()
        let left = try ReplayCommand.canonicalJSON(path: first, upto: nil, asOf: nil, model: nil, encryption: encryption)
        let right = try ReplayCommand.canonicalJSON(path: second, upto: nil, asOf: nil, model: nil, encryption: encryption)
        let differences = JSONDiff.differences(left, right)
        if differences.isEmpty {
            try Terminal.line("identical")
            return
        }
        try Terminal.line("--- \(first)\n+++ \(second)")
        for line in differences { try Terminal.line(line) }
        throw ExitCode(1)
    }
}

/// `tally verify --expect golden.json`: a regression test of replayed state against a golden file.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Compare replayed read models with a golden JSON file.",
        discussion: "Exit 0 match, 1 mismatch (a readable diff is printed), 2 could not run.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Option(help: ArgumentHelp("The golden canonical JSON (from `tally replay`).", valueName: "FILE")) var expect: String
    @Option(help: "Compare one read model: wallets, debts, budgets or networth.") var model: ReadModelName?

    func run() async throws {
        let path = try location.path()
        let actual = try ReplayCommand.canonicalJSON(path: path, upto: nil, asOf: nil, model: model, encryption: try key.encryption())
        guard let data = FileManager.default.contents(atPath: expect) else { throw CLIError("\(expect): cannot read the golden file") }
        let expected: CanonicalJSON
        do { expected = try JSONDiff.parse(data) } catch { throw CLIError("\(expect): not valid JSON: \(error)") }
        let differences = JSONDiff.differences(expected, actual)
        if differences.isEmpty {
            try Terminal.line("ok: \(path) matches \(expect)")
            return
        }
        try Terminal.line("mismatch: \(path) differs from \(expect) (- expected, + actual)")
        for line in differences { try Terminal.line(line) }
        throw ExitCode(1)
    }
}
