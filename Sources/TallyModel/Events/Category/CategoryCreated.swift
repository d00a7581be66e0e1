/// A category was created (presets too, with the household) (C1).
///
/// Tag 300, schema version 1 (see ``EventTag/categoryCreated`` and `Docs/Events.md`).
@WireFields
public struct CategoryCreated: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// Its name, unique in the household (C2).
    public let name: String
    /// Income or expense, fixed.
    public let group: CategoryGroup
    /// The 50/30/20 bucket.
    public let budgetType: BudgetType
    /// Whether shared expenses may use it.
    public let shareable: Bool
    /// An icon, e.g. an emoji.
    public let icon: String?
    /// A color, e.g. `#4CAF50`.
    public let color: String?
    /// Whether it is a preset, which cannot be deleted (C2).
    public let isPreset: Bool

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        categoryID: CategoryID, name: String, group: CategoryGroup, budgetType: BudgetType, shareable: Bool,
        icon: String?, color: String?, isPreset: Bool
    ) {
        self.categoryID = categoryID
        self.name = name
        self.group = group
        self.budgetType = budgetType
        self.shareable = shareable
        self.icon = icon
        self.color = color
        self.isPreset = isPreset
    }
}
