import TallyModel

extension BudgetStatus: StateCodableEnum {}
extension BudgetAlert: StateCodableEnum {}
extension IncomeSource: StateCodableEnum {}
extension SavingsTargetSource: StateCodableEnum {}

extension CategoryBudget: StateCodable {}

extension BudgetGroupSummary: StateCodable {}

extension WeeklyAllowance: StateCodable {}

extension IncomeSummary: StateCodable {}

extension WeeklySavings: StateCodable {}

extension SavingsProgress: StateCodable {}

extension BudgetReport: StateCodable {}
