/// Whether a category classifies income or expenses (C1); fixed at creation.
///
/// The raw values are stored in events: never change or reuse one.
public enum CategoryGroup: UInt8, CaseIterable, Hashable, Sendable {
    /// Money coming in.
    case income = 0
    /// Money going out.
    case expense = 1
}
