import SystemPackage
import TallyInterchange
import TallyJournal
import TallyProjections

typealias JournalEncryptionOption = JournalEncryption?

/// Read-only replay of a ledger directory into read models, from the journal alone.
enum Replayer {
    /// Folds the journal (through `through`) into fresh read models.
    static func readModels(
        at path: String, through: UInt64?, encryption: JournalEncryption?,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) throws -> Projections {
        let history = try LedgerAccess.history(at: path, through: through, encryption: encryption)
        progress(history.lastSequenceNumber, history.lastSequenceNumber)
        return history.readModels
    }
}
