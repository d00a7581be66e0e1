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
}
