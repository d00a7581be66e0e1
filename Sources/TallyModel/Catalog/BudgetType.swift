/// The 50/30/20 bucket of a category (C1, B3).
///
/// The raw values are stored in events: never change or reuse one.
public enum BudgetType: UInt8, CaseIterable, Hashable, Sendable {
    /// Necessities (50%).
    case needs = 0
    /// Discretionary spending (30%).
    case wants = 1
    /// Saving and debt repayment (20%).
    case savings = 2
    /// Not budgeted (e.g. income categories).
    case none = 3
}
