/// The default categories of a new household, from seed 001 US-401 (C2).
///
/// Decisions: the seed names both an expense and an income category "Other"; C2 requires unique
/// names, so the income one is "Other Income". Budget types follow 50/30/20 common sense
/// (groceries, transport, health, home, communication are needs; the rest of the expenses are
/// wants; "Other" is none; income is none). Expense presets are shareable, income presets are not.
public enum CategoryPresets {
    /// The ten expense presets, in display order.
    public static let expense: [CategoryPreset] = [
        expensePreset("groceries", "Groceries", .needs, "🛒", "#4CAF50"),
        expensePreset("transport", "Transport", .needs, "🚗", "#2196F3"),
        expensePreset("entertainment", "Entertainment", .wants, "🎬", "#9C27B0"),
        expensePreset("restaurants", "Restaurants", .wants, "🍽️", "#FF9800"),
        expensePreset("health", "Health", .needs, "💊", "#F44336"),
        expensePreset("clothing", "Clothing", .wants, "👕", "#E91E63"),
        expensePreset("home", "Home", .needs, "🏠", "#795548"),
        expensePreset("communication", "Communication", .needs, "📱", "#00BCD4"),
        expensePreset("subscriptions", "Subscriptions", .wants, "📺", "#673AB7"),
        expensePreset("other", "Other", .none, "📦", "#607D8B"),
    ]

    /// The four income presets, in display order.
    public static let income: [CategoryPreset] = [
        incomePreset("salary", "Salary", "💰", "#4CAF50"),
        incomePreset("freelance", "Freelance", "💻", "#2196F3"),
        incomePreset("gifts", "Gifts", "🎁", "#E91E63"),
        incomePreset("other", "Other Income", "📥", "#607D8B"),
    ]

    /// Expense presets followed by income presets.
    public static var all: [CategoryPreset] { expense + income }

    /// The `CategoryCreated` events that create every preset in `household`, in ``all`` order.
    public static func creationEvents(in household: HouseholdID) -> [CategoryCreated] {
        all.map { $0.creationEvent(in: household) }
    }

    private static func expensePreset(
        _ key: String, _ name: String, _ budgetType: BudgetType, _ icon: String, _ color: String
    ) -> CategoryPreset {
        CategoryPreset(
            key: "expense." + key, name: name, group: .expense, budgetType: budgetType, shareable: true,
            icon: icon, color: color)
    }

    private static func incomePreset(_ key: String, _ name: String, _ icon: String, _ color: String) -> CategoryPreset {
        CategoryPreset(
            key: "income." + key, name: name, group: .income, budgetType: .none, shareable: false,
            icon: icon, color: color)
    }
}
