import ArgumentParser
import Foundation
import SystemPackage
import Tally

/// Where the ledger is: `--ledger DIR`, or the positional `DIR`, or `$TALLY_LEDGER`.
struct LedgerLocation: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The ledger directory (it holds \(LedgerDirectory.journalName)/ and \(LedgerDirectory.readSideName)/).", valueName: "DIR"))
    var ledger: String?

    @Argument(help: ArgumentHelp("The ledger directory, instead of --ledger.", valueName: "DIR"))
    var directory: String?

    /// The chosen directory.
    func path() throws -> String {
        if let ledger, let directory, ledger != directory {
            throw CLIError("give the ledger once: --ledger \(ledger) and \(directory) differ")
        }
        if let chosen = ledger ?? directory ?? ProcessInfo.processInfo.environment["TALLY_LEDGER"], !chosen.isEmpty {
            return chosen
        }
        throw CLIError("no ledger given: pass --ledger DIR (or set TALLY_LEDGER)")
    }
}

/// `--ledger DIR` only, for commands whose positional argument is a file.
struct LedgerOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The ledger directory (it holds \(LedgerDirectory.journalName)/ and \(LedgerDirectory.readSideName)/).", valueName: "DIR"))
    var ledger: String?

    /// The chosen directory.
    func path() throws -> String {
        if let chosen = ledger ?? ProcessInfo.processInfo.environment["TALLY_LEDGER"], !chosen.isEmpty {
            return chosen
        }
        throw CLIError("no ledger given: pass --ledger DIR (or set TALLY_LEDGER)")
    }
}
