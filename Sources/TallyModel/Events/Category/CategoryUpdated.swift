/// A category's budget bucket, icon and color were changed; carries all three after the change
/// (C1; its name and group are changed by `CategoryRenamed`, and the group never).
///
/// Tag 310, schema version 1 (see ``EventTag/categoryUpdated`` and `Docs/Events.md`).
@WireFields
public struct CategoryUpdated: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// The 50/30/20 bucket (B3, B5).
    public let budgetType: BudgetType
    /// An icon, e.g. an emoji; `nil` for none.
    public let icon: String?
    /// A color, e.g. `#4CAF50`; `nil` for none.
    public let color: String?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(categoryID: CategoryID, budgetType: BudgetType, icon: String?, color: String?) {
        self.categoryID = categoryID
        self.budgetType = budgetType
        self.icon = icon
        self.color = color
    }
}
