/// A planning scenario was saved, created or replaced (R3, Drishti E9): monthly income and
/// expense deltas, a savings-rate delta and dated lump sums applied over the baseline projection
/// (N4).
///
/// Tag 630, schema version 2 (see ``EventTag/scenarioSaved`` and `Docs/Events.md`); version 2
/// added ``savingsRateDeltaBasisPoints``. Every field is the scenario after the save.
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
    /// Percentage points added to the savings rate (R4), in basis points (Drishti E9-S1): 500 is
    /// "+5% savings rate" (E9-S3, ``savingsRatePresetBasisPoints``), within
    /// ``savingsRateDeltaBasisPointsRange`` (E9-S6). The series turns it into a monthly amount
    /// from the reference months' income, within guard rails (Docs/Planning.md "Scenarios
    /// (R3)"). `nil` (and scenarios of version 1): none.
    @WireSince(2) public let savingsRateDeltaBasisPoints: Int64?

    /// The "+5% savings rate" preset of Drishti E9-S3, in basis points.
    public static let savingsRatePresetBasisPoints: Int64 = 500
    /// The savings-rate deltas a scenario may ask (E9-S6: from -80% to +200%), in basis points.
    public static let savingsRateDeltaBasisPointsRange: ClosedRange<Int64> = -8_000...20_000

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(scenarioID: ScenarioID, name: String, monthlyIncomeDelta: Money, monthlyExpenseDelta: Money, lumpSums: [ScenarioLumpSum],
                savingsRateDeltaBasisPoints: Int64? = nil) {
        self.scenarioID = scenarioID
        self.name = name
        self.monthlyIncomeDelta = monthlyIncomeDelta
        self.monthlyExpenseDelta = monthlyExpenseDelta
        self.lumpSums = lumpSums
        self.savingsRateDeltaBasisPoints = savingsRateDeltaBasisPoints
    }

    /// The "+5% savings rate" preset (Drishti E9-S3): no amount deltas, no lump sums, a
    /// savings-rate delta of ``savingsRatePresetBasisPoints``, amounts in `currency` (the
    /// household's base currency).
    public static func savingsRatePreset(scenarioID: ScenarioID, name: String = "+5% savings rate", currency: Currency) -> ScenarioSaved {
        let zero = Money(minorUnits: 0, currency: currency)
        return ScenarioSaved(scenarioID: scenarioID, name: name, monthlyIncomeDelta: zero, monthlyExpenseDelta: zero, lumpSums: [],
                             savingsRateDeltaBasisPoints: savingsRatePresetBasisPoints)
    }
}
