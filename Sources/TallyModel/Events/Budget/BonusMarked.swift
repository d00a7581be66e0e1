/// An income was marked as a bonus, or the mark was taken off (Flow US-066): a bonus goes to
/// the bonus pool instead of the period's income until it is allocated or rolls in.
///
/// Tag 606, schema version 1 (see ``EventTag/bonusMarked`` and `Docs/Events.md`).
@WireFields
public struct BonusMarked: Hashable, Sendable {
    /// The income transaction.
    public let transactionID: TransactionID
    /// `true`: a bonus ("Treat as bonus", "Mark as bonus"); `false`: regular income again.
    public let isBonus: Bool

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID, isBonus: Bool) {
        self.transactionID = transactionID
        self.isBonus = isBonus
    }
}
