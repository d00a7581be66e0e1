/// A category's allocation was removed from a period on (B2): from `fromPeriod` until a later
/// `BudgetAllocated`, the category is not budgeted (it has no allocation, which is not an
/// allocation of zero).
///
/// Tag 610, schema version 1 (see ``EventTag/budgetRemoved`` and `Docs/Events.md`).
@WireFields
public struct BudgetRemoved: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// The start date of the first period without an allocation.
    public let fromPeriod: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID, fromPeriod: LocalDate) {
        self.categoryID = categoryID
        self.fromPeriod = fromPeriod
    }
}
