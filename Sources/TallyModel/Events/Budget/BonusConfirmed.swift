/// An income flagged as a bonus was confirmed to count as income (B7).
///
/// Tag 603, schema version 1 (see ``EventTag/bonusConfirmed`` and `Docs/Events.md`).
@WireFields
public struct BonusConfirmed: Hashable, Sendable {
    /// The income transaction.
    public let transactionID: TransactionID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID) {
        self.transactionID = transactionID
    }
}
