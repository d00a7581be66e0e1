import TallyModel

/// One projected month of a scenario beside the baseline (R3).
public struct ScenarioPoint: Hashable, Sendable {
    /// The month; values are at its last day.
    public let month: YearMonth
    /// The baseline projection's net worth (N4).
    public let baseline: Money
    /// The net worth with the scenario applied.
    public let scenario: Money
    /// `scenario - baseline`.
    public let delta: Money
}

/// A scenario applied over the baseline (R3, Drishti E9-S2): twelve months side by side.
public struct ScenarioSeries: Hashable, Sendable {
    /// The scenario, `nil` for the baseline alone (no active scenario).
    public let scenario: ScenarioSaved?
    /// One point per projected month, oldest first.
    public let points: [ScenarioPoint]
    /// Currencies without a rate at the last month of history (N3): their wallets are not in
    /// the baseline.
    public let missingRates: [Currency]
    /// Lump sums dated on or before the last month of history: they are in the past of the
    /// projection and left out.
    public let pastLumpSums: [ScenarioLumpSum]
    /// What the scenario's savings-rate delta adds each month, with its reference and guard
    /// rails; `nil` without one.
    public let savingsRate: ScenarioSavingsRate?
}

extension NetWorthProjection {
    /// `scenario` over the baseline (N4) for `monthsAhead` months (R3): each projected month k
    /// (1 for the first) adds k times (income delta - expense delta + the savings-rate delta's
    /// monthly amount, `savingsRate`), and every lump sum dated in a projected month counts from
    /// that month on. The baseline is not changed. A ledger
    /// without history projects a flat zero baseline from the month after `fallbackMonth`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when a value does not fit.
    public func scenarioSeries(
        _ scenario: ScenarioSaved?, fallbackMonth: YearMonth, monthsAhead: Int = 12, savingsRate: ScenarioSavingsRate? = nil
    ) throws(ProjectionError) -> ScenarioSeries {
        let baseline = try baseline(monthsAhead: monthsAhead)
        let currency = baseCurrency
        let lastHistory = monthRange()?.last ?? fallbackMonth
        let baselinePoints: [(month: YearMonth, value: Money)] = baseline.isEmpty
            ? (1...max(1, min(monthsAhead, 1_200))).compactMap { step in
                (try? lastHistory.adding(months: step)).map { ($0, Money(minorUnits: 0, currency: currency)) }
            }
            : baseline.map { ($0.month, $0.value) }
        let monthly = Int128(scenario?.monthlyIncomeDelta.minorUnits ?? 0) - Int128(scenario?.monthlyExpenseDelta.minorUnits ?? 0)
            + Int128(savingsRate?.monthlyAmount.minorUnits ?? 0)
        let lumpSums = scenario?.lumpSums ?? []
        var points: [ScenarioPoint] = []
        for (step, point) in baselinePoints.enumerated() {
            let lumps = lumpSums.filter { $0.date.yearMonth > lastHistory && $0.date.yearMonth <= point.month }
                .reduce(Int128(0)) { $0 + Int128($1.amount.minorUnits) }
            let value = Int128(point.value.minorUnits) + monthly * Int128(step + 1) + lumps
            points.append(ScenarioPoint(
                month: point.month, baseline: point.value,
                scenario: try MoneySum(units: value, currency: currency).money(rule: "R3", subject: "the scenario in \(point.month)"),
                delta: try MoneySum(units: value - Int128(point.value.minorUnits), currency: currency)
                    .money(rule: "R3", subject: "the scenario's difference in \(point.month)")))
        }
        return ScenarioSeries(
            scenario: scenario, points: points, missingRates: baseline.last?.missingRates ?? [],
            pastLumpSums: lumpSums.filter { $0.date.yearMonth <= lastHistory }, savingsRate: savingsRate)
    }
}
