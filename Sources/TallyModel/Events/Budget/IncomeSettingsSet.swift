/// How income is determined for budgets (B7).
///
/// Tag 602, schema version 1 (see ``EventTag/incomeSettingsSet`` and `Docs/Events.md`).
@WireFields
public struct IncomeSettingsSet: Hashable, Sendable {
    /// Manual or auto-detected.
    public let mode: IncomeMode
    /// The manual amount, also the fallback.
    public let monthlyIncome: Money
    /// The categories auto mode sums.
    public let incomeCategoryIDs: [CategoryID]
    /// Days before a period start still counted as its income (default 3).
    public let graceDays: Int

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(mode: IncomeMode, monthlyIncome: Money, incomeCategoryIDs: [CategoryID], graceDays: Int) {
        self.mode = mode
        self.monthlyIncome = monthlyIncome
        self.incomeCategoryIDs = incomeCategoryIDs
        self.graceDays = graceDays
    }
}
