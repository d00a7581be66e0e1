/// What was left of a bonus 7 days after it was marked became regular income of its period
/// (Flow US-066). The engine appends it before the first command recorded after the deadline.
///
/// Tag 608, schema version 1 (see ``EventTag/bonusRolledIn`` and `Docs/Events.md`).
@WireFields
public struct BonusRolledIn: Hashable, Sendable {
    /// The bonus.
    public let transactionID: TransactionID
    /// The unallocated amount that counts as income from now on.
    public let amount: Money

    /// Creates the payload; the engine computes it before recording.
    public init(transactionID: TransactionID, amount: Money) {
        self.transactionID = transactionID
        self.amount = amount
    }
}
