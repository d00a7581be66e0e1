import SystemPackage
import TallyInterchange
import TallyJournal
import TallyProjections

typealias JournalEncryptionOption = JournalEncryption?

/// Read-only replay of a ledger directory into read models, from the journal alone.
enum Replayer {
    /// Folds the journal (through `through`) into fresh read models. Replay output is what
    /// `verify` and `diff` compare against, so it is never a silent prefix: damage anywhere but
    /// a torn tail, or a journal shorter than its checkpoint or key store prove, stops it
    /// (`LedgerReplay` refuses; exit 2 naming segment and sequence).
    static func readModels(
        at path: String, through: UInt64?, encryption: JournalEncryption?,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) throws -> Projections {
        let history = try LedgerAccess.history(at: path, through: through, encryption: encryption)
        progress(history.lastSequenceNumber, history.lastSequenceNumber)
        return history.readModels
    }
}
