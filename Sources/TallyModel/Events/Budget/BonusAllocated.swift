/// Part of a bonus in the bonus pool was allocated to a budget category or a goal (Flow
/// US-066: save, splurge, pay debt).
///
/// Tag 607, schema version 1 (see ``EventTag/bonusAllocated`` and `Docs/Events.md`).
@WireFields
public struct BonusAllocated: Hashable, Sendable {
    /// The bonus (an income marked with `BonusMarked`).
    public let transactionID: TransactionID
    /// The expense category whose budget the amount adds to in the bonus's period; `nil` for a goal.
    public let categoryID: CategoryID?
    /// The goal the amount is set aside for; `nil` for a category.
    public let goalID: GoalID?
    /// The amount, in the base currency, at most what is still available.
    public let amount: Money

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID, categoryID: CategoryID?, goalID: GoalID?, amount: Money) {
        self.transactionID = transactionID
        self.categoryID = categoryID
        self.goalID = goalID
        self.amount = amount
    }
}
