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
        try requireUndamaged(at: path, encryption: encryption)
        let history = try LedgerAccess.history(at: path, through: through, encryption: encryption)
        progress(history.lastSequenceNumber, history.lastSequenceNumber)
        return history.readModels
    }

    /// Replay output is what `verify` and `diff` compare against, so it must not be a silent
    /// prefix: damage before the journal's end (anything but a torn tail, which a running or
    /// crashed writer leaves and its next open cuts) stops the replay with `journalCorrupted`
    /// naming the place (exit 2); `tally audit` lists every problem.
    static func requireUndamaged(at path: String, encryption: JournalEncryption?) throws {
        try LedgerAccess.requireLedger(at: path)
        let reader: JournalReader
        do {
            reader = try JournalReader.open(at: FilePath(path).appending("journal"), encryption: encryption)
        } catch {
            throw CLIError("\(path): \(error.description)")
        }
        guard let damage = reader.recoveryReport.problems.first(where: { $0.kind != .tornTail }) else { return }
        throw CLIError("\(path): journalCorrupted: \(damage.kind.rawValue) at \(damage.location): \(damage.detail); the valid prefix ends at sequence \(reader.lastSequenceNumber) and replay does not serve a damaged journal; run `tally audit \(path)`")
    }
}
