import TallyModel

extension BudgetProjection {
    /// US-038: the period's savings target (the savings allocations when any is positive, else
    /// the B3 20% suggestion) divided over the weeks (from `firstWeekday`) overlapping the period as B5
    /// divides an allowance, and what each week put aside: live entries in categories of the
    /// savings bucket (an expense moved to savings, or an income booked to a savings category).
    static func savingsProgress(
        _ period: PayPeriod, allocated: Int128, suggested: Money,
        _ entries: [(date: LocalDate, amount: ExactAmount)], _ currency: Currency, firstWeekday: Weekday
    ) throws(ProjectionError) -> SavingsProgress {
        let source: SavingsTargetSource = allocated > 0 ? .allocated : .suggested
        let targetUnits128 = allocated > 0 ? allocated : Int128(suggested.minorUnits)
        guard let targetUnits = Int64(exactly: targetUnits128) else {
            throw .overflow(rule: "US-038", subject: "savings target")
        }
        let weekStarts = weekStarts(period, firstWeekday: firstWeekday)
        let weights = weekStarts.indices.map { (key: $0, weight: Int64(1)) }
        let shares = (try? Allocation.allocate(targetUnits, weights: weights, preferred: nil)) ?? []
        var weeks: [WeeklySavings] = []
        var total = ConvertedTotal(currency)
        for (index, weekStart) in weekStarts.enumerated() {
            let from = max(weekStart, period.start)
            let to = min((try? weekStart.adding(days: 6)) ?? .max, period.end)
            // G2: the week's converted entries added exactly, rounded once.
            var savedTotal = ConvertedTotal(currency)
            for entry in entries where from <= entry.date && entry.date <= to { savedTotal.add(entry.amount) }
            total.add(savedTotal)
            let saved = try savedTotal.money(rule: "US-038", subject: "weekly savings")
            let target = index < shares.count ? shares[index] : 0
            weeks.append(WeeklySavings(
                weekStart: weekStart, from: from, to: to, target: Money(minorUnits: target, currency: currency),
                saved: saved, isMet: target > 0 && saved.minorUnits >= target))
        }
        return SavingsProgress(
            target: Money(minorUnits: targetUnits, currency: currency), targetSource: source,
            saved: try total.money(rule: "US-038", subject: "period savings"), weeks: weeks)
    }

    /// The first days of the weeks overlapping `period` (at most 1000), oldest first, for
    /// weeks starting on `firstWeekday` (B5).
    static func weekStarts(_ period: PayPeriod, firstWeekday: Weekday) -> [LocalDate] {
        var weekStarts: [LocalDate] = []
        var start = period.start.startOfWeek(startingOn: firstWeekday)
        while start <= period.end, weekStarts.count < 1_000 {
            weekStarts.append(start)
            guard let next = try? start.adding(days: 7) else { break }
            start = next
        }
        return weekStarts
    }

    /// US-054: the B4 thresholds applied to the whole budget: over when everything spent in the
    /// period exceeds the total allocation + 10%, under at period end below 80% of it, else on
    /// track; `unbudgeted` when nothing is allocated.
    static func overallStatus(spent: Int128, allocated: Int128, isFinal: Bool) -> BudgetStatus {
        guard allocated > 0 else { return .unbudgeted }
        return status(spent: spent, allocated: allocated, isFinal: isFinal)
    }
}
