/// How a period's income is determined (B7).
///
/// The raw values are stored in events: never change or reuse one.
public enum IncomeMode: UInt8, CaseIterable, Hashable, Sendable {
    /// The configured monthly income.
    case manual = 0
    /// Income detected from selected categories.
    case auto = 1
}
