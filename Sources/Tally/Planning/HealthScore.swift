import TallyModel
import TallyProjections
import TallyStore

/// A financial health score from 0 to 100 with its components (Swiff 4.3.3), derived when
/// asked from the income and expenses (R4, base currency, G2) a viewer sees in the three whole
/// months before a date; deterministic (Docs/Planning.md "Health score").
///
/// Three components of 0...``componentPointsMax`` points each; the score is their sum x 100 /
/// (3 x ``componentPointsMax``), rounded half to even:
/// - savings rate: the three months' savings rate `r` (basis points, R4); `r x 25 / 2000`,
///   rounded down, within 0...25 (a rate of 20% or more is full marks; none without income);
/// - months in the black: 25 x (months whose income covers their expenses) / 3, rounded down;
/// - spending trend: the last month's expenses against the three-month average `a`: 25 when at
///   or under it, 0 at 150% of it or more, linear in between (rounded down); 25 without
///   expenses.
public struct HealthScore: Sendable, Hashable {
    /// The most points one component gives.
    public static let componentPointsMax: Int64 = 25
    /// The score, 0...100.
    public let score: Int64
    /// Savings rate points, 0...25.
    public let savingsRatePoints: Int64
    /// Months-in-the-black points, 0...25.
    public let monthsInTheBlackPoints: Int64
    /// Spending-trend points, 0...25.
    public let spendingTrendPoints: Int64
    /// The three months' savings rate in basis points; `nil` without income.
    public let savingsRateBasisPoints: Int64?
    /// The months the score reads, first to last day.
    public let months: ClosedRange<LocalDate>

    /// The score of a report by month over three months (``AnalyticsReport``).
    init(report: AnalyticsReport, months: ClosedRange<LocalDate>) {
        let periods = report.periods
        let income = periods.reduce(Int128(0)) { $0 + Int128($1.totals.income.minorUnits) }
        let expense = periods.reduce(Int128(0)) { $0 + Int128($1.totals.expense.minorUnits) }
        let max = Self.componentPointsMax
        let rate: Int64? = income > 0 ? Int64(clamping: ((income - expense) * 10_000).dividedRoundingHalfEven(by: income)) : nil
        // Clamped to 0...20% before scaling: a rate near Int64.min (tiny income, huge expenses) never overflows.
        savingsRatePoints = rate.map { Swift.min(2_000, Swift.max(0, $0)) * max / 2_000 } ?? 0
        let covered = Int64(periods.count(where: { $0.totals.income.minorUnits >= $0.totals.expense.minorUnits }))
        monthsInTheBlackPoints = periods.isEmpty ? 0 : max * covered / Int64(periods.count)
        let average = periods.isEmpty ? Int128(0) : expense.dividedRoundingHalfEven(by: Int128(periods.count))
        let last = Int128(periods.last?.totals.expense.minorUnits ?? 0)
        if average <= 0 || last <= average {
            spendingTrendPoints = max
        } else if last * 2 >= average * 3 {
            spendingTrendPoints = 0
        } else {
            // Linear from 25 at the average to 0 at 150% of it: 25 x (1.5a - last) / 0.5a.
            spendingTrendPoints = Int64(clamping: Int128(max) * (average * 3 - last * 2) / average)
        }
        savingsRateBasisPoints = rate
        self.months = months
        let sum = Int128(savingsRatePoints + monthsInTheBlackPoints + spendingTrendPoints)
        score = Int64(clamping: (sum * 100).dividedRoundingHalfEven(by: Int128(3 * max)))
    }
}

extension Ledger {
    /// The financial health score on `date` for `viewer` (Swiff 4.3.3, G7: over what they see),
    /// from the three whole months before `date`'s month (``HealthScore``).
    /// - Throws: the errors of ``analytics(_:)``; ``LedgerError/invalidQuery(_:)`` for a date
    ///   whose months before are outside the calendar.
    public func healthScore(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> HealthScore {
        guard let store = flushedStore() else { throw .readSide("the health score reads the read-side store, which does not show the ledger's last batch; run `tally rebuild`") }
        return try HealthScore(on: date, visibleTo: viewer, store: store, wallets: servedModels.wallets)
    }
}

extension HealthScore {
    /// The score on `date` for `viewer` from `store` and the rates of `wallets` (of the same
    /// batch): the three whole months before `date`'s month, by month (R4).
    package init(on date: LocalDate, visibleTo viewer: Viewer, store: LedgerStore, wallets: WalletProjection) throws(LedgerError) {
        let (first, last) = try LocalDate.threeWholeMonths(before: date)
        let report = try AnalyticsReport(AnalyticsQuery(span: .month, from: first, through: last, filter: TransactionQuery(visibleTo: viewer)),
                                         store: store, wallets: wallets, firstWeekday: .monday)  // whole months: no week is cut
        self.init(report: report, months: first...last)
    }
}

extension LocalDate {
    /// The first and last day of the three whole months before `date`'s month: the reference
    /// the health score (Swiff 4.3.3) and a savings-rate scenario (E9) read.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when they fall outside the calendar.
    static func threeWholeMonths(before date: LocalDate) throws(LedgerError) -> (first: LocalDate, last: LocalDate) {
        do {
            return (try date.yearMonth.adding(months: -3).firstDay, try date.yearMonth.adding(months: -1).lastDay)
        } catch {
            throw .invalidQuery("the three months before \(date) are outside the calendar")
        }
    }
}
