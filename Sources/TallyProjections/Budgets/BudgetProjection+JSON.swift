import TallyModel

extension BudgetProjection {
    /// The read model as canonical JSON: `{"adjustmentsAfterClose","closed","problems"}` plus,
    /// when a transaction or allocation dates one, `"current"`: the live report of the period
    /// containing the latest transaction or allocation date.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func canonicalJSON() throws(ProjectionError) -> CanonicalJSON {
        var object: [String: CanonicalJSON] = [
            "closed": .array(closedPeriods.compactMap { snapshots[$0.start].map(CanonicalJSON.init) }),
            "adjustmentsAfterClose": .array(adjustmentsAfterClose.map(CanonicalJSON.init)),
            "problems": .array(problems.map(CanonicalJSON.init)),
            "baseCurrency": baseCurrency.map { .string($0.code) } ?? .null,
        ]
        if let latest = latestDate {
            object["current"] = CanonicalJSON(try budget(for: period(containing: latest)))
        }
        return .object(object)
    }
}

extension BudgetProjection {
    /// The latest date a transaction or an allocation dates, `nil` before any: the period
    /// containing it is the read model's current one (its JSON's `"current"`, `tally budget`,
    /// the budget CSV export). O(transactions ever recorded).
    package var latestDate: LocalDate? {
        let transactionDates = transactions.allEntries.values.map(\.details.date)
        return (transactionDates + allocations.values.flatMap { $0.map(\.fromPeriod) }).max()
    }
}

extension CanonicalJSON {
    /// A budget period report.
    public init(_ report: BudgetReport) {
        self = .object([
            "periodStart": CanonicalJSON(report.period.start), "periodEnd": CanonicalJSON(report.period.end),
            "isFinal": .bool(report.isFinal), "currency": .string(report.currency.code),
            "categories": .array(report.categories.map { line in
                .object([
                    "categoryID": CanonicalJSON(line.categoryID), "name": .string(line.name),
                    "budgetType": .string("\(line.budgetType)"), "allocated": CanonicalJSON(line.allocated),
                    "spent": CanonicalJSON(line.spent), "remaining": CanonicalJSON(line.remaining),
                    "percentBasisPoints": line.percentBasisPoints.map(CanonicalJSON.integer) ?? .null,
                    "status": .string("\(line.status)"), "alert": .string("\(line.alert)"),
                ])
            }),
            "groups": .array(report.groups.map { group in
                .object([
                    "budgetType": .string("\(group.budgetType)"), "allocated": CanonicalJSON(group.allocated),
                    "spent": CanonicalJSON(group.spent), "suggested": CanonicalJSON(group.suggested),
                ])
            }),
            "income": .object([
                "source": .string("\(report.income.source)"), "amount": CanonicalJSON(report.income.amount),
                "counted": .array(report.income.counted.map(CanonicalJSON.init)),
                "flaggedBonuses": .array(report.income.flaggedBonuses.map(CanonicalJSON.init)),
            ]),
            "totalAllocated": CanonicalJSON(report.totalAllocated), "unallocated": CanonicalJSON(report.unallocated),
            "totalSpent": CanonicalJSON(report.totalSpent), "status": .string("\(report.status)"),
            "savings": .object([
                "target": CanonicalJSON(report.savings.target), "targetSource": .string("\(report.savings.targetSource)"),
                "saved": CanonicalJSON(report.savings.saved),
                "weeks": .array(report.savings.weeks.map { week in
                    .object([
                        "weekStart": CanonicalJSON(week.weekStart), "from": CanonicalJSON(week.from), "to": CanonicalJSON(week.to),
                        "target": CanonicalJSON(week.target), "saved": CanonicalJSON(week.saved), "isMet": .bool(week.isMet),
                    ])
                }),
            ]),
            "weeklyAllowances": .array(report.weeklyAllowances.map { week in
                .object([
                    "budgetType": .string("\(week.budgetType)"), "weekStart": CanonicalJSON(week.weekStart),
                    "from": CanonicalJSON(week.from), "to": CanonicalJSON(week.to),
                    "allowance": CanonicalJSON(week.allowance), "spent": CanonicalJSON(week.spent),
                    "remaining": CanonicalJSON(week.remaining),
                ])
            }),
            "missingRates": .array(report.missingRates.map { .string($0.code) }),
        ])
    }

    /// An adjustment after close.
    public init(_ adjustment: BudgetAdjustment) {
        self = .object([
            "periodStart": CanonicalJSON(adjustment.periodStart),
            "sequenceNumber": .integer(Int64(truncatingIfNeeded: adjustment.sequenceNumber)),
            "kind": .string(adjustment.kind), "transactionID": CanonicalJSON(adjustment.transactionID),
            "categoryID": CanonicalJSON(adjustment.categoryID), "amount": CanonicalJSON(adjustment.amount),
        ])
    }
}
