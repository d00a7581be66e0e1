import TallyModel

extension BudgetProjection {
    /// The budget currency: the base currency, or `XXX` (ISO "no currency") before it is known.
    var budgetCurrency: Currency { baseCurrency ?? (try? Currency("XXX")) ?? .chf }

    /// The pay period containing `date` (B1).
    public func period(containing date: LocalDate) -> PayPeriod { schedule.period(containing: date) }

    /// The report of `period` (B6): the frozen snapshot when it is closed, else the live report.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func budget(for period: PayPeriod) throws(ProjectionError) -> BudgetReport {
        if let snapshot = snapshots[period.start], snapshot.period == period { return snapshot }
        return try report(for: period, isFinal: false)
    }

    /// The closed periods, by start date.
    public var closedPeriods: [PayPeriod] { snapshots.values.map(\.period).sorted() }

    /// The allocation of a category in effect for a period starting on `start` (B2): the latest
    /// `BudgetAllocated` with `fromPeriod <= start` (ties: the later event); `nil` when there is
    /// none or the latest is a `BudgetRemoved`.
    func allocation(of categoryID: CategoryID, forPeriodStarting start: LocalDate) -> Money? {
        allocations[categoryID]?.last { $0.fromPeriod <= start }?.amount
    }

    /// Converts to the budget currency at `date`; a missing rate is noted and counts as zero.
    func toBudget(_ money: Money, on date: LocalDate, missing: inout Set<Currency>) -> Int128 {
        guard let units = rates.convert(Int128(money.minorUnits), from: money.currency, to: budgetCurrency, on: date) else {
            missing.insert(money.currency)
            return 0
        }
        return units
    }

    /// Computes a report from the current state (live), `isFinal` at period end.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func report(for period: PayPeriod, isFinal: Bool) throws(ProjectionError) -> BudgetReport {
        let currency = budgetCurrency
        var missing = Set<Currency>()
        var allocated: [CategoryID: Int128] = [:]
        var spent: [CategoryID: Int128] = [:]
        for (categoryID, category) in categories where !category.isDeleted && category.group == .expense {
            if let amount = allocation(of: categoryID, forPeriodStarting: period.start) {
                allocated[categoryID] = toBudget(amount, on: period.start, missing: &missing)
            }
        }
        var expensesByDay: [(date: LocalDate, type: BudgetType, units: Int128)] = []
        for (_, record) in transactions(datedIn: period.start...period.end) where record.isLive && record.details.kind == .expense {
            let units = toBudget(record.details.amount, on: record.details.date, missing: &missing)
            spent[record.details.categoryID, default: 0] += units
            let type = categories[record.details.categoryID]?.budgetType ?? .none
            expensesByDay.append((record.details.date, type, units))
        }
        func money(_ units: Int128, _ subject: @autoclosure () -> String) throws(ProjectionError) -> Money {
            try MoneySum(units: units, currency: currency).money(rule: "B4", subject: subject())
        }
        var lines: [CategoryBudget] = []
        for categoryID in Set(allocated.keys).union(spent.keys) {
            let category = categories[categoryID]
            let isBudgeted = allocated[categoryID] != nil
            let allocatedUnits = allocated[categoryID] ?? 0
            let spentUnits = spent[categoryID] ?? 0
            lines.append(CategoryBudget(
                categoryID: categoryID, name: category?.name ?? "", budgetType: category?.budgetType ?? .none,
                allocated: try money(allocatedUnits, "allocation of \(categoryID)"),
                spent: try money(spentUnits, "spending in \(categoryID)"),
                remaining: try money(allocatedUnits - spentUnits, "remaining of \(categoryID)"),
                percentBasisPoints: Self.percent(spentUnits, of: allocatedUnits),
                status: isBudgeted ? Self.status(spent: spentUnits, allocated: allocatedUnits, isFinal: isFinal) : .unbudgeted,
                alert: isBudgeted ? Self.alert(spent: spentUnits, allocated: allocatedUnits) : .none))
        }
        lines.sort { ($0.name, $0.categoryID) < ($1.name, $1.categoryID) }
        let income = try incomeSummary(for: period, missing: &missing)
        let suggestion = Allocation.fiftyThirtyTwenty(income.amount)
        var groups: [BudgetGroupSummary] = []
        var bucketAllocations: [BudgetType: Int128] = [:]
        for (type, suggested) in [(BudgetType.needs, suggestion.needs), (.wants, suggestion.wants), (.savings, suggestion.savings)] {
            let members = lines.filter { $0.budgetType == type }
            let allocatedUnits = members.reduce(Int128(0)) { $0 + Int128($1.allocated.minorUnits) }
            bucketAllocations[type] = allocatedUnits
            groups.append(BudgetGroupSummary(
                budgetType: type, allocated: try money(allocatedUnits, "\(type) allocation"),
                spent: try money(members.reduce(Int128(0)) { $0 + Int128($1.spent.minorUnits) }, "\(type) spending"),
                suggested: suggested))
        }
        let totalAllocated = allocated.values.reduce(Int128(0), +)
        return BudgetReport(
            period: period, isFinal: isFinal, currency: currency, categories: lines, groups: groups, income: income,
            totalAllocated: try money(totalAllocated, "total allocation"),
            unallocated: try money(Int128(income.amount.minorUnits) - totalAllocated, "unallocated income"),
            weeklyAllowances: try Self.weeklyAllowances(period, bucketAllocations, expensesByDay, currency),
            missingRates: missing.sorted())
    }

    /// `spent / allocated` in basis points, rounded down; `nil` without a positive allocation.
    static func percent(_ spent: Int128, of allocated: Int128) -> Int64? {
        guard allocated > 0 else { return nil }
        return Int64(clamping: spent * 10_000 / allocated)
    }

    /// B4: over when spent > allocated + 10%; under at period end when spent < 80%; else on track.
    static func status(spent: Int128, allocated: Int128, isFinal: Bool) -> BudgetStatus {
        guard allocated > 0 else { return spent > 0 ? .over : .onTrack }
        if spent * 10 > allocated * 11 { return .over }
        if isFinal && spent * 10 < allocated * 8 { return .under }
        return .onTrack
    }

    /// The highest threshold of 80% and 100% reached.
    static func alert(spent: Int128, allocated: Int128) -> BudgetAlert {
        guard allocated > 0 else { return spent > 0 ? .reached100 : .none }
        if spent >= allocated { return .reached100 }
        return spent * 10 >= allocated * 8 ? .reached80 : .none
    }
}
