/// The tax class of a category (Swiss tax categorization, Pillar 3a and work expenses; Phase 5
/// business): what a category's transactions count toward in the tax report of a year.
///
/// The raw values are stored in events: never change or reuse one.
public enum TaxClass: UInt8, CaseIterable, Hashable, Sendable {
    /// Pillar 3a contributions (Swiss tied private pension, deductible up to a yearly cap).
    case pillar3a = 0
    /// Work expenses (Berufsauslagen: commuting, meals away, further training).
    case workExpense = 1
    /// Business income and expenses (self-employment); client and project are tags
    /// (`client:NAME`, `project:NAME`).
    case business = 2
    /// Donations to charitable organizations.
    case charitable = 3
    /// Medical and dental costs not covered by insurance.
    case medical = 4
}
