import TallyModel

extension BudgetStatus: StateCodableEnum {}
extension BudgetAlert: StateCodableEnum {}
extension IncomeSource: StateCodableEnum {}

extension CategoryBudget: StateCodable {}

extension BudgetGroupSummary: StateCodable {}

extension WeeklyAllowance: StateCodable {}

extension IncomeSummary: StateCodable {}

extension BudgetReport: StateCodable {}
