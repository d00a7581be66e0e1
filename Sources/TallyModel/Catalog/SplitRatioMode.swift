/// How the household split ratio is chosen (S1, S4).
///
/// The raw values are stored in events: never change or reuse one.
public enum SplitRatioMode: UInt8, CaseIterable, Hashable, Sendable {
    /// Ratios set by the members.
    case manual = 0
    /// Ratios recomputed from the previous period's income.
    case incomeBased = 1
}
