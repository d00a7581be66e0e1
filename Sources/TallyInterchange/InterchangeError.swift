import TallyJournal
import TallyModel

/// Why an import, export, backup or restore could not run (STYLE 5): a stable ``code`` and a
/// message that names the file and, for journal problems, the segment, offset and sequence.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable identifier (`journalCorrupted`, `csvUnreadable`...).
    public let code: String
    /// What went wrong, for a person fixing it.
    public let message: String

    /// Creates an error.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    static func journal(_ error: JournalError) -> InterchangeError {
        InterchangeError(code: error.code, message: error.description)
    }
}
