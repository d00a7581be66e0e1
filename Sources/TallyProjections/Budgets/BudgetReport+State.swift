import TallyModel

extension BudgetStatus: StateCodableEnum {}
extension BudgetAlert: StateCodableEnum {}
extension IncomeSource: StateCodableEnum {}

extension CategoryBudget: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        categoryID.encode(to: &writer)
        name.encode(to: &writer)
        budgetType.encode(to: &writer)
        allocated.encode(to: &writer)
        spent.encode(to: &writer)
        remaining.encode(to: &writer)
        percentBasisPoints.encode(to: &writer)
        status.encode(to: &writer)
        alert.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            categoryID: try reader.read(), name: try reader.read(), budgetType: try reader.read(),
            allocated: try reader.read(), spent: try reader.read(), remaining: try reader.read(),
            percentBasisPoints: try reader.read(), status: try reader.read(), alert: try reader.read())
    }
}

extension BudgetGroupSummary: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        budgetType.encode(to: &writer)
        allocated.encode(to: &writer)
        spent.encode(to: &writer)
        suggested.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(budgetType: try reader.read(), allocated: try reader.read(), spent: try reader.read(), suggested: try reader.read())
    }
}

extension WeeklyAllowance: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        budgetType.encode(to: &writer)
        weekStart.encode(to: &writer)
        from.encode(to: &writer)
        to.encode(to: &writer)
        allowance.encode(to: &writer)
        spent.encode(to: &writer)
        remaining.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            budgetType: try reader.read(), weekStart: try reader.read(), from: try reader.read(), to: try reader.read(),
            allowance: try reader.read(), spent: try reader.read(), remaining: try reader.read())
    }
}

extension IncomeSummary: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        source.encode(to: &writer)
        amount.encode(to: &writer)
        counted.encode(to: &writer)
        flaggedBonuses.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(source: try reader.read(), amount: try reader.read(), counted: try reader.read(), flaggedBonuses: try reader.read())
    }
}

extension BudgetReport: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        period.encode(to: &writer)
        isFinal.encode(to: &writer)
        currency.encode(to: &writer)
        categories.encode(to: &writer)
        groups.encode(to: &writer)
        income.encode(to: &writer)
        totalAllocated.encode(to: &writer)
        unallocated.encode(to: &writer)
        weeklyAllowances.encode(to: &writer)
        missingRates.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            period: try reader.read(), isFinal: try reader.read(), currency: try reader.read(),
            categories: try reader.read(), groups: try reader.read(), income: try reader.read(),
            totalAllocated: try reader.read(), unallocated: try reader.read(),
            weeklyAllowances: try reader.read(), missingRates: try reader.read())
    }
}
