import TallyModel

extension BudgetProjection {
    /// B5: for needs and wants, the bucket allocation divided over the weeks (from `firstWeekday`) that
    /// overlap the period (largest remainder, earlier weeks first), each week's spending inside
    /// the period, and what remains; nothing carries from one week to the next.
    static func weeklyAllowances(
        _ period: PayPeriod, _ allocations: [BudgetType: Int128],
        _ expenses: [(date: LocalDate, type: BudgetType, amount: ExactAmount)], _ currency: Currency, firstWeekday: Weekday
    ) throws(ProjectionError) -> [WeeklyAllowance] {
        let weekStarts = weekStarts(period, firstWeekday: firstWeekday)
        var result: [WeeklyAllowance] = []
        for type in [BudgetType.needs, .wants] {
            let total = allocations[type] ?? 0
            guard let totalUnits = Int64(exactly: total) else {
                throw .overflow(rule: "B5", subject: "\(type) allocation")
            }
            let weights = weekStarts.indices.map { (key: $0, weight: Int64(1)) }
            let shares = (try? Allocation.allocate(totalUnits, weights: weights, preferred: nil)) ?? []
            for (index, weekStart) in weekStarts.enumerated() {
                let weekEnd = (try? weekStart.adding(days: 6)) ?? .max
                let from = max(weekStart, period.start)
                let to = min(weekEnd, period.end)
                // G2: the week's converted expenses added exactly, rounded once.
                var spentTotal = ConvertedTotal(currency)
                for expense in expenses where expense.type == type && from <= expense.date && expense.date <= to {
                    spentTotal.add(expense.amount)
                }
                let spent = try spentTotal.units(rule: "B5", subject: "weekly spending")
                let allowance = index < shares.count ? shares[index] : 0
                func money(_ units: Int128) throws(ProjectionError) -> Money {
                    try MoneySum(units: units, currency: currency).money(rule: "B5", subject: "weekly allowance")
                }
                result.append(WeeklyAllowance(
                    budgetType: type, weekStart: weekStart, from: from, to: to,
                    allowance: Money(minorUnits: allowance, currency: currency), spent: try money(spent),
                    remaining: try money(Int128(allowance) - spent)))
            }
        }
        return result
    }
}
