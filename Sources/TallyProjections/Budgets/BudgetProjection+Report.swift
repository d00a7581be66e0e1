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

    /// The `PaydaySet` rules (B1), which the engine's validation reads for its open period.
    package var paySchedule: PaySchedule { schedule }

    /// The allocation of a category in effect for a period starting on `start` (B2): the latest
    /// `BudgetAllocated` with `fromPeriod <= start` (ties: the later event); `nil` when there is
    /// none or the latest is a `BudgetRemoved`. The engine's validation reads it too.
    package func allocation(of categoryID: CategoryID, forPeriodStarting start: LocalDate) -> Money? {
        allocations[categoryID]?.last { $0.fromPeriod <= start }?.amount
    }

    /// Every (category, first period) allocation as last set (B2; a `nil` amount: removed from
    /// that period on), by category then first period: what exports and resets list.
    package var allocationEntries: [(categoryID: CategoryID, fromPeriod: LocalDate, amount: Money?)] {
        allocations.keys.sorted().flatMap { categoryID in
            // Sorted by (first period, sequence number): the last of each first period counts.
            var latest: [LocalDate: Money?] = [:]
            for record in allocations[categoryID] ?? [] { latest[record.fromPeriod] = .some(record.amount) }
            return latest.keys.sorted().map { (categoryID: categoryID, fromPeriod: $0, amount: latest[$0] ?? nil) }
        }
    }

    /// `money` in the budget currency at `date`, exact (G2: totals add these and round once);
    /// a missing rate is noted and counts as zero.
    func toBudget(_ money: Money, on date: LocalDate, missing: inout Set<Currency>) -> ExactAmount {
        guard let exact = rates.exactly(Int128(money.minorUnits), from: money.currency, to: budgetCurrency, on: date) else {
            missing.insert(money.currency)
            return .zero
        }
        return exact
    }

    /// Computes a report from the current state (live), `isFinal` at period end.
    ///
    /// Every figure that adds converted amounts (a category's spending, a bucket, the totals,
    /// remaining and unallocated amounts, a week's spending) adds them exactly and rounds once
    /// (G2), so a figure may differ from the sum of the rounded figures listed under it by at
    /// most one minor unit per part.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func report(for period: PayPeriod, isFinal: Bool) throws(ProjectionError) -> BudgetReport {
        let currency = budgetCurrency
        var missing = Set<Currency>()
        var allocated: [CategoryID: ConvertedTotal] = [:]
        var spent: [CategoryID: ConvertedTotal] = [:]
        for (categoryID, category) in categories where !category.isDeleted && category.group == .expense {
            if let amount = allocation(of: categoryID, forPeriodStarting: period.start) {
                allocated[categoryID, default: ConvertedTotal(currency)].add(toBudget(amount, on: period.start, missing: &missing))
            }
        }
        // US-066: bonus allocations add to the category's budget of the period they were made in.
        for (categoryID, amount) in bonusAllocations(in: period) where categories[categoryID]?.isDeleted == false {
            allocated[categoryID, default: ConvertedTotal(currency)].add(toBudget(amount, on: period.start, missing: &missing))
        }
        var expensesByDay: [(date: LocalDate, type: BudgetType, amount: ExactAmount)] = []
        var savingsByDay: [(date: LocalDate, amount: ExactAmount)] = []
        var totalSpent = ConvertedTotal(currency)
        for (_, record) in transactions(datedIn: period.start...period.end) where record.isLive {
            let amount = toBudget(record.details.amount, on: record.details.date, missing: &missing)
            let categoryID = category(of: record)
            if categories[categoryID]?.budgetType == .savings { savingsByDay.append((record.details.date, amount)) }
            guard record.details.kind == .expense else { continue }
            totalSpent.add(amount)
            spent[categoryID, default: ConvertedTotal(currency)].add(amount)
            let type = categories[categoryID]?.budgetType ?? .none
            expensesByDay.append((record.details.date, type, amount))
        }
        func money(_ total: ConvertedTotal, _ subject: @autoclosure () -> String) throws(ProjectionError) -> Money {
            try total.money(rule: "B4", subject: subject())
        }
        func units(_ total: ConvertedTotal, _ subject: @autoclosure () -> String) throws(ProjectionError) -> Int128 {
            try total.units(rule: "B4", subject: subject())
        }
        var lines: [CategoryBudget] = []
        var bucketAllocated: [BudgetType: ConvertedTotal] = [:]
        var bucketSpent: [BudgetType: ConvertedTotal] = [:]
        var totalAllocated = ConvertedTotal(currency)
        for categoryID in Set(allocated.keys).union(spent.keys) {
            let category = categories[categoryID]
            let isBudgeted = allocated[categoryID] != nil
            let type = category?.budgetType ?? .none
            let allocatedTotal = allocated[categoryID] ?? ConvertedTotal(currency)
            let spentTotal = spent[categoryID] ?? ConvertedTotal(currency)
            var remaining = allocatedTotal
            remaining.add(spentTotal.negated)
            bucketAllocated[type, default: ConvertedTotal(currency)].add(allocatedTotal)
            bucketSpent[type, default: ConvertedTotal(currency)].add(spentTotal)
            totalAllocated.add(allocatedTotal)
            let allocatedUnits = try units(allocatedTotal, "allocation of \(categoryID)")
            let spentUnits = try units(spentTotal, "spending in \(categoryID)")
            lines.append(CategoryBudget(
                categoryID: categoryID, name: category?.name ?? "", budgetType: type,
                allocated: try money(allocatedTotal, "allocation of \(categoryID)"),
                spent: try money(spentTotal, "spending in \(categoryID)"),
                remaining: try money(remaining, "remaining of \(categoryID)"),
                percentBasisPoints: Self.percent(spentUnits, of: allocatedUnits),
                status: isBudgeted ? Self.status(spent: spentUnits, allocated: allocatedUnits, isFinal: isFinal) : .unbudgeted,
                alert: isBudgeted ? Self.alert(spent: spentUnits, allocated: allocatedUnits) : .none))
        }
        lines.sort { ($0.name, $0.categoryID) < ($1.name, $1.categoryID) }
        let (income, exactIncome) = try incomeSummary(for: period, missing: &missing)
        let suggestion = Allocation.fiftyThirtyTwenty(income.amount)
        var groups: [BudgetGroupSummary] = []
        var bucketAllocations: [BudgetType: Int128] = [:]
        for (type, suggested) in [(BudgetType.needs, suggestion.needs), (.wants, suggestion.wants), (.savings, suggestion.savings)] {
            let allocatedTotal = bucketAllocated[type] ?? ConvertedTotal(currency)
            bucketAllocations[type] = try units(allocatedTotal, "\(type) allocation")
            groups.append(BudgetGroupSummary(
                budgetType: type, allocated: try money(allocatedTotal, "\(type) allocation"),
                spent: try money(bucketSpent[type] ?? ConvertedTotal(currency), "\(type) spending"),
                suggested: suggested))
        }
        var unallocated = exactIncome
        unallocated.add(totalAllocated.negated)
        let status = Self.overallStatus(
            spent: try units(totalSpent, "total spending"), allocated: try units(totalAllocated, "total allocation"), isFinal: isFinal)
        let savings = try Self.savingsProgress(
            period, allocated: bucketAllocations[.savings] ?? 0, suggested: suggestion.savings, savingsByDay, currency, firstWeekday: firstWeekday)
        return BudgetReport(
            period: period, isFinal: isFinal, currency: currency, categories: lines, groups: groups, income: income,
            totalAllocated: try money(totalAllocated, "total allocation"),
            unallocated: try money(unallocated, "unallocated income"),
            totalSpent: try money(totalSpent, "total spending"), status: status,
            weeklyAllowances: try Self.weeklyAllowances(period, bucketAllocations, expensesByDay, currency, firstWeekday: firstWeekday),
            savings: savings, missingRates: missing.sorted())
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
