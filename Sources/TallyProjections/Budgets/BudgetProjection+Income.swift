import TallyModel

extension BudgetProjection {
    /// The income window of a period (B7): the period shifted back by the grace days, so an
    /// income that arrives up to `graceDays` before payday counts for the period it starts, and
    /// no income counts twice.
    func incomeWindow(_ period: PayPeriod, graceDays: Int) -> ClosedRange<LocalDate> {
        let from = (try? period.start.adding(days: Int64(-graceDays))) ?? .min
        let to = (try? period.end.adding(days: Int64(-graceDays))) ?? .min
        return from...max(from, to)
    }

    /// Live income transactions of the selected categories dated in the window, oldest first.
    func detectedIncomes(_ period: PayPeriod, _ settings: IncomeSettingsSet) -> [(id: TransactionID, record: TransactionRecord)] {
        let window = incomeWindow(period, graceDays: min(max(settings.graceDays, 0), 31))
        let selected = Set(settings.incomeCategoryIDs)
        return transactions(datedIn: window).filter { _, record in
            record.isLive && record.details.kind == .income && selected.contains(category(of: record))
        }
        .sorted { ($0.record.details.date, $0.record.sequenceNumber) < ($1.record.details.date, $1.record.sequenceNumber) }
    }

    /// B7: manual mode uses the monthly income; auto mode sums detected incomes, excluding
    /// unconfirmed bonuses (an income over 150% of the average detected income of the last
    /// three periods that had any) and bonuses in the bonus pool (US-066: only what rolled in of
    /// them counts), and falls back to the manual amount when nothing is left.
    ///
    /// Converted amounts are added exactly and rounded once (G2); the exact income comes back
    /// beside the summary, for the unallocated amount.
    func incomeSummary(
        for period: PayPeriod, missing: inout Set<Currency>
    ) throws(ProjectionError) -> (summary: IncomeSummary, exact: ConvertedTotal) {
        let currency = budgetCurrency
        guard let settings = incomeSettings else {
            return (IncomeSummary(source: .none, amount: .zero(currency), counted: [], flaggedBonuses: []), ConvertedTotal(currency))
        }
        var manual = ConvertedTotal(currency)
        manual.add(toBudget(settings.monthlyIncome, on: period.start, missing: &missing))
        let manualAmount = try manual.money(rule: "B7", subject: "monthly income")
        guard settings.mode == .auto else {
            return (IncomeSummary(source: .manual, amount: manualAmount, counted: [], flaggedBonuses: []), manual)
        }
        var previousTotals: [Int128] = []
        var previous = period
        for _ in 0..<3 {
            previous = schedule.period(before: previous)
            var total = ConvertedTotal(currency)
            for (id, record) in detectedIncomes(previous, settings) {
                guard let amount = incomeAmount(id, record) else { continue }  // a bonus in the pool (US-066)
                total.add(toBudget(amount, on: record.details.date, missing: &missing))
            }
            let units = try total.units(rule: "B7", subject: "detected income")
            if units > 0 { previousTotals.append(units) }
        }
        var counted: [TransactionID] = []
        var flagged: [TransactionID] = []
        var sum = ConvertedTotal(currency)
        for (id, record) in detectedIncomes(period, settings) {
            // US-066: a bonus in the pool is no income; what rolled in of it is, and is no bonus to flag.
            if isPooledBonus(id) {
                if let rolled = incomeAmount(id, record), rolled.isPositive {
                    counted.append(id)
                    sum.add(toBudget(rolled, on: record.details.date, missing: &missing))
                }
                continue
            }
            let amount = toBudget(record.details.amount, on: record.details.date, missing: &missing)
            // The bonus test compares one income (rounded on its own) with the rounded totals.
            let units = amount.rounded
            let isBonus = !previousTotals.isEmpty
                && units * 2 * Int128(previousTotals.count) > previousTotals.reduce(0, +) * 3
            if isBonus && !confirmedBonuses.contains(id) {
                flagged.append(id)
            } else {
                counted.append(id)
                sum.add(amount)
            }
        }
        guard !counted.isEmpty else {
            return (IncomeSummary(source: .fallbackManual, amount: manualAmount, counted: [], flaggedBonuses: flagged), manual)
        }
        let amount = try sum.money(rule: "B7", subject: "detected income")
        return (IncomeSummary(source: .detected, amount: amount, counted: counted, flaggedBonuses: flagged), sum)
    }

    /// Live income in `currency` dated in `range`, summed per payer: what income-based split
    /// ratios weigh (S4, the engine's validation). One key range of the date index, so the cost
    /// is the period's transactions, not the history's.
    package func liveIncomeByPayer(datedIn range: ClosedRange<LocalDate>, currency: Currency) -> [PersonID: Int128] {
        var sums: [PersonID: Int128] = [:]
        for (_, record) in transactions(datedIn: range)
        where record.isLive && record.details.kind == .income && record.details.amount.currency == currency {
            sums[record.details.payer, default: 0] += Int128(record.details.amount.minorUnits)
        }
        return sums
    }
}
