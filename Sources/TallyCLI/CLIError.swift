import Tally
import TallyInterchange
import TallyJournal

/// An error that ends a command: by default one that stops it from running (exit 2). The
/// message names the file and, for journal problems, the segment, offset and sequence.
struct CLIError: Error, Sendable {
    /// Exit code 2: the command could not run.
    static let couldNotRunExitCode: Int32 = 2
    /// Exit code 3: stdout could not be written (closed pipe, full disk, I/O error). Read-only
    /// subcommands stopped; writing subcommands finished their work first (Docs/CLI.md).
    static let outputLostExitCode: Int32 = 3

    /// What went wrong, for stderr (printed after `tally: `).
    let message: String
    /// The process exit code.
    let exitCode: Int32

    /// An error with `message` and exit code 2.
    init(_ message: String) {
        self.message = message
        self.exitCode = Self.couldNotRunExitCode
    }

    private init(_ message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A ledger error, prefixed with the ledger directory.
    static func ledger(_ error: LedgerError, at directory: String) -> CLIError {
        CLIError("\(directory): \(error.description)")
    }

    /// An interchange error, prefixed with the ledger directory or file.
    static func interchange(_ error: InterchangeError, at path: String) -> CLIError {
        CLIError("\(path): \(error.description)")
    }

    /// Stdout failed while a read-only subcommand printed: its output is incomplete (exit 3).
    static func outputFailed(_ error: OutputError) -> CLIError {
        CLIError("\(error.description); the output is incomplete", exitCode: outputLostExitCode)
    }

    /// Stdout failed while a writing subcommand printed its results; the work itself was done
    /// (exit 3): `stdout: write failed: Broken pipe (EPIPE) after 1 result line; all 58
    /// commands were applied; ...`.
    static func outputLost(_ error: OutputError, linesWritten: Int, outcome: String) -> CLIError {
        let lines = "\(linesWritten) result line\(linesWritten == 1 ? "" : "s")"
        return CLIError("\(error.description) after \(lines); \(outcome)", exitCode: outputLostExitCode)
    }
}
