import Tally
import TallyInterchange
import TallyJournal

/// An error that stops a command from running (exit code 2). The message names the file and,
/// for journal problems, the segment, offset and sequence.
struct CLIError: Error, Sendable {
    let message: String

    init(_ message: String) { self.message = message }

    /// A ledger error, prefixed with the ledger directory.
    static func ledger(_ error: LedgerError, at directory: String) -> CLIError {
        CLIError("\(directory): \(error.description)")
    }

    /// An interchange error, prefixed with the ledger directory or file.
    static func interchange(_ error: InterchangeError, at path: String) -> CLIError {
        CLIError("\(path): \(error.description)")
    }
}
