/// A default category created with every household (C2); presets cannot be deleted.
public struct CategoryPreset: Hashable, Sendable {
    /// A stable key such as `expense.groceries`; the preset's id is derived from it, so it never
    /// changes, even if the display name does.
    public let key: String
    /// The display name.
    public let name: String
    /// Income or expense.
    public let group: CategoryGroup
    /// The 50/30/20 bucket.
    public let budgetType: BudgetType
    /// Whether shared expenses may use it.
    public let shareable: Bool
    /// The icon (an emoji).
    public let icon: String
    /// The color, `#RRGGBB`.
    public let color: String

    /// Creates a preset.
    public init(
        key: String, name: String, group: CategoryGroup, budgetType: BudgetType, shareable: Bool,
        icon: String, color: String
    ) {
        self.key = key
        self.name = name
        self.group = group
        self.budgetType = budgetType
        self.shareable = shareable
        self.icon = icon
        self.color = color
    }

    /// The preset's id in `household`: `CategoryID.derived(namespace: household, name: "preset." + key)`
    /// (see ``UUIDValue/derived(namespace:name:)``). The same household always gets the same ids.
    public func categoryID(in household: HouseholdID) -> CategoryID {
        CategoryID.derived(namespace: household.value, name: "preset." + key)
    }

    /// The event that creates this preset in `household`.
    public func creationEvent(in household: HouseholdID) -> CategoryCreated {
        CategoryCreated(
            categoryID: categoryID(in: household), name: name, group: group, budgetType: budgetType,
            shareable: shareable, icon: icon, color: color, isPreset: true)
    }
}
