/// A category's budget per period, carried over until changed (B2).
///
/// Tag 601, schema version 1 (see ``EventTag/budgetAllocated`` and `Docs/Events.md`).
@WireFields
public struct BudgetAllocated: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// The allocation per period.
    public let amount: Money
    /// The start date of the first period it applies to.
    public let fromPeriod: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID, amount: Money, fromPeriod: LocalDate) {
        self.categoryID = categoryID
        self.amount = amount
        self.fromPeriod = fromPeriod
    }
}
