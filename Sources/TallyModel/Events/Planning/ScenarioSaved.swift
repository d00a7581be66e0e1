/// A planning scenario was saved, created or replaced (R3, Drishti E9): monthly income and
/// expense deltas and dated lump sums applied over the baseline projection (N4).
///
/// Tag 630, schema version 1 (see ``EventTag/scenarioSaved`` and `Docs/Events.md`). Every field
/// is the scenario after the save.
@WireFields
public struct ScenarioSaved: Hashable, Sendable {
    /// The scenario.
    public let scenarioID: ScenarioID
    /// What the user calls it.
    public let name: String
    /// Added to every projected month's income (negative for less income), base currency.
    public let monthlyIncomeDelta: Money
    /// Added to every projected month's expenses (negative for less spending), base currency.
    public let monthlyExpenseDelta: Money
    /// One-off amounts, by date.
    public let lumpSums: [ScenarioLumpSum]

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(scenarioID: ScenarioID, name: String, monthlyIncomeDelta: Money, monthlyExpenseDelta: Money, lumpSums: [ScenarioLumpSum]) {
        self.scenarioID = scenarioID
        self.name = name
        self.monthlyIncomeDelta = monthlyIncomeDelta
        self.monthlyExpenseDelta = monthlyExpenseDelta
        self.lumpSums = lumpSums
    }
}
