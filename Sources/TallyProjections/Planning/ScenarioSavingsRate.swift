import TallyModel

/// What a scenario's savings-rate delta (Drishti E9-S1, E9-S3) adds to each projected month,
/// and the guard rails that bound it (E9-S6; Docs/Planning.md "Scenarios (R3)").
///
/// The reference is the household's average monthly income `I` and expenses `E` over the three
/// whole months before the month the series is asked for (R4 figures in the base currency,
/// G2). With the scenario's amount deltas, income is `I' = I + incomeDelta` and expenses before
/// the rate `E'' = E + expenseDelta`. The delta of `d` basis points moves `s = I' x d / 10000`
/// (half to even, once) from expenses to savings each month, so the scenario's savings rate is
/// the baseline's plus `d`, within the guard rails: expenses never fall below zero (`s <= E''`,
/// the rate stays at or below 100%) and a negative delta never takes the rate below zero
/// (`s >= E'' - I'` when that is negative; a rate already below zero is not lowered further).
/// Without income (`I' <= 0`) a percentage has nothing to apply to: `s` is zero.
public struct ScenarioSavingsRate: Hashable, Sendable {
    /// The delta as saved, in basis points of the savings rate.
    public let deltaBasisPoints: Int64
    /// The reference months' first and last day.
    public let referenceMonths: ClosedRange<LocalDate>
    /// The average monthly income of the reference months, base currency.
    public let referenceIncome: Money
    /// The average monthly expenses of the reference months, base currency.
    public let referenceExpense: Money
    /// What the delta adds to each projected month's savings after the guard rails (negative:
    /// less saving).
    public let monthlyAmount: Money
    /// Whether a guard rail cut the amount (or there was no income to take a percentage of).
    public let isLimited: Bool
    /// The reference months' savings rate, `(I - E) / I` in basis points; `nil` without income.
    public let baselineRateBasisPoints: Int64?
    /// The scenario's savings rate with its income and expense deltas and ``monthlyAmount``;
    /// `nil` without income.
    public let scenarioRateBasisPoints: Int64?

    /// Applies `deltaBasisPoints` to the reference figures and the scenario's amount deltas.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when an amount does not fit (G1).
    public init(deltaBasisPoints: Int64, referenceMonths: ClosedRange<LocalDate>, referenceIncome: Money, referenceExpense: Money,
                incomeDelta: Money, expenseDelta: Money) throws(ProjectionError) {
        let currency = referenceIncome.currency
        let income = Int128(referenceIncome.minorUnits) + Int128(incomeDelta.minorUnits)
        let expenseBefore = Int128(referenceExpense.minorUnits) + Int128(expenseDelta.minorUnits)
        var amount: Int128 = 0
        var limited = true
        if income > 0 {
            let wanted = (income * Int128(deltaBasisPoints)).dividedRoundingHalfEven(by: 10_000)
            let upper = max(0, expenseBefore)
            let lower = min(0, expenseBefore - income)
            amount = min(max(wanted, lower), upper)
            limited = amount != wanted
        }
        func rate(_ income: Int128, _ expense: Int128) -> Int64? {
            income > 0 ? Int64(clamping: ((income - expense) * 10_000).dividedRoundingHalfEven(by: income)) : nil
        }
        self.deltaBasisPoints = deltaBasisPoints
        self.referenceMonths = referenceMonths
        self.referenceIncome = referenceIncome
        self.referenceExpense = referenceExpense
        self.monthlyAmount = try MoneySum(units: amount, currency: currency).money(rule: "R3", subject: "the savings-rate delta's monthly amount")
        self.isLimited = limited
        self.baselineRateBasisPoints = rate(Int128(referenceIncome.minorUnits), Int128(referenceExpense.minorUnits))
        self.scenarioRateBasisPoints = rate(income, expenseBefore - amount)
    }
}
