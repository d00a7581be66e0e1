import TallyModel
import TallyProjections

extension CSVExporter {
    /// The columns of ``budgets(_:from:through:visibleTo:numberFormat:)``, in order.
    public static let budgetHeader = [
        "period_start", "period_end", "period_state", "category", "budget_type", "budgeted", "spent", "remaining", "percent",
        "status", "currency",
    ]

    /// The most pay periods one budget export covers (about 50 years of monthly periods).
    public static let budgetPeriodsMax = 600

    /// The CSV text of the budget reports (B4, Flow US-050 "optional budget CSV"): one row per
    /// pay period and category, periods oldest first and categories as the report orders them
    /// (name, then id): the budget read model's `budget(for:)`, live for an open period and the
    /// frozen snapshot for a closed one (B6, `period_state` `open` or `closed`).
    ///
    /// The periods run from the one containing `from` (nil: the first closed period, else the
    /// current one) through the one containing `through` (nil: the current one, which contains
    /// the latest transaction or allocation date; no rows when there is none). `budgeted` is
    /// the allocation in force (B2), `remaining` budgeted - spent, `percent` spent / budgeted
    /// with two decimals (empty without an allocation), `status` B4's `on-track`, `over`,
    /// `under` (only at period end) or `unbudgeted`. Amounts are in the budget currency.
    ///
    /// G7: a budget is the household's (Docs/Privacy.md, "What stays household-wide"): its
    /// spending sums every member's expenses without listing any entry, so every `viewer`
    /// gets the same rows.
    ///
    /// - Throws: `InterchangeError` `exportRangeInvalid` when `from` is after `through`,
    ///   `exportRangeTooLarge` for more than ``budgetPeriodsMax`` periods, the read model's code
    ///   when a figure does not fit (G1).
    public static func budgets(
        _ history: LedgerHistory, from: LocalDate? = nil, through: LocalDate? = nil, visibleTo viewer: Viewer,
        numberFormat: NumberFormat = .plain
    ) throws(InterchangeError) -> String {
        try checkRange(from: from, through: through)
        let budgets = history.readModels.budgets
        var rows: [[String]] = []
        guard let last = through ?? budgets.latestDate else { return text(header: budgetHeader, rows: rows) }
        let lastPeriod = budgets.period(containing: last)
        var period = budgets.period(containing: from ?? min(budgets.closedPeriods.first?.start ?? last, last))
        for count in 0... {
            guard count < budgetPeriodsMax else {
                throw InterchangeError(
                    code: "exportRangeTooLarge",
                    message: "more than \(budgetPeriodsMax) pay periods from \(period.start.isoString); narrow --from and --to")
            }
            let report: BudgetReport
            do { report = try budgets.budget(for: period) } catch { throw overflow(error) }
            for line in report.categories {
                rows.append([
                    period.start.isoString, period.end.isoString, report.isFinal ? "closed" : "open", line.name,
                    String(describing: line.budgetType), numberFormat.text(line.allocated), numberFormat.text(line.spent),
                    numberFormat.text(line.remaining), line.percentBasisPoints.map { percent(basisPoints: $0) } ?? "",
                    statusText(line.status), report.currency.code,
                ])
            }
            guard period.end < lastPeriod.start, let next = try? period.end.adding(days: 1) else { break }
            period = budgets.period(containing: next)
        }
        return text(header: budgetHeader, rows: rows)
    }

    /// B4's name of a status.
    static func statusText(_ status: BudgetStatus) -> String {
        switch status {
        case .onTrack: "on-track"
        case .over: "over"
        case .under: "under"
        case .unbudgeted: "unbudgeted"
        }
    }
}
