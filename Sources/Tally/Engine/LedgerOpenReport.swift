import TallyJournal
import TallyModel

/// How `Ledger.open` rebuilt its state: from a checkpoint plus the journal's tail, or by a full
/// replay, and why a checkpoint was not used.
public struct LedgerOpenReport: Sendable, Hashable {
    /// The sequence number of the checkpoint used, nil for a full replay.
    public var checkpointSequenceNumber: UInt64?
    /// Events folded from the journal after the checkpoint (all of them for a full replay).
    public var eventsReplayed: UInt64
    /// Checkpoints passed over, newest first, each with the reason (damaged, not matching the
    /// journal's chain, unreadable). A missing or damaged checkpoint only costs time.
    public var rejectedCheckpoints: [String]
    /// Personal texts that read as sealed (their owner was never forgotten; only
    /// with ``LedgerOptions/opensWithUnreadablePersonalTexts``).
    public var unreadablePersonalTexts = 0
    /// People whose forgetting a crash had left unfinished (key not yet destroyed, or
    /// checkpoints still holding their texts) and that the open completed (P3).
    public var forgettingCompleted: [PersonID] = []
    /// What the journal repaired when it opened: a torn tail cut (bytes and location; the cut
    /// records were never acknowledged under a synchronous policy), temporary files removed.
    public var journalRecovery = RecoveryReport()
    /// The read-side store at open: current, caught up (events), rebuilt (why), or unavailable
    /// (why; the engine works without it).
    public var readSide = ""
    /// Whether the open removed what an interrupted `Ledger.restore` or `LedgerReset` of this
    /// folder had left beside it before it committed (``LedgerDirectory/restoring``, which
    /// may hold a copy of the personal keys).
    public var removedInterruptedRestore = false
    /// What the open did about an interrupted restore or reset of this folder
    /// (``Ledger/recoverInterruptedSwap(at:fileSystem:)``): usually nothing; a finished swap
    /// says so and where the replaced ledger is kept. Nil only for a report not made by an open.
    public var swapRecovery: SwapRecovery?
}
