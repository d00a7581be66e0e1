import TallyModel

/// A category's standing in a period (B4).
public enum BudgetStatus: UInt8, Hashable, Sendable {
    /// Spent at most the allocation + 10%.
    case onTrack = 0
    /// Spent more than the allocation + 10% (anything, with an allocation of zero).
    case over = 1
    /// At period end, spent less than 80% of the allocation.
    case under = 2
    /// Spending in a category with no allocation in force (never allocated, or removed with
    /// `removeBudget`): not measured against a budget, so never over (B2, Docs/Editing.md).
    case unbudgeted = 3
}

/// The highest alert threshold reached (seed 001 US-502/504).
public enum BudgetAlert: UInt8, Hashable, Sendable {
    /// Below 80% of the allocation.
    case none = 0
    /// At least 80% of the allocation spent.
    case reached80 = 1
    /// At least 100% of the allocation spent.
    case reached100 = 2
}

/// Where a period's income figure comes from (B7).
public enum IncomeSource: UInt8, Hashable, Sendable {
    /// No income settings recorded: income is zero.
    case none = 0
    /// Manual mode: the configured monthly income.
    case manual = 1
    /// Auto mode: the sum of detected income transactions.
    case detected = 2
    /// Auto mode found nothing: the manual amount is used.
    case fallbackManual = 3
}

/// One category's line in a period report (B2, B4), in the budget currency.
@StateFields
public struct CategoryBudget: Hashable, Sendable {
    /// The category.
    public let categoryID: CategoryID
    /// Its name.
    public let name: String
    /// Its 50/30/20 bucket.
    public let budgetType: BudgetType
    /// The allocation in effect for the period (carried over, B2).
    public let allocated: Money
    /// Live expenses dated in the period (T3; never rolled over, B2).
    public let spent: Money
    /// `allocated - spent` (negative when overspent).
    public let remaining: Money
    /// `spent / allocated` in basis points, rounded down; `nil` without an allocation.
    public let percentBasisPoints: Int64?
    /// The B4 status.
    public let status: BudgetStatus
    /// The highest alert threshold reached.
    public let alert: BudgetAlert
}

/// A 50/30/20 bucket in a period (B3).
@StateFields
public struct BudgetGroupSummary: Hashable, Sendable {
    /// Needs, wants or savings.
    public let budgetType: BudgetType
    /// The sum of the bucket's allocations.
    public let allocated: Money
    /// The sum of the bucket's spending.
    public let spent: Money
    /// The 50/30/20 suggestion from the period's income (S3 rounding).
    public let suggested: Money
}

/// The weekly allowance of a bucket for one Monday-based week overlapping the period (B5).
@StateFields
public struct WeeklyAllowance: Hashable, Sendable {
    /// Needs or wants.
    public let budgetType: BudgetType
    /// The Monday the week starts on (may precede the period).
    public let weekStart: LocalDate
    /// The first day of the week inside the period.
    public let from: LocalDate
    /// The last day of the week inside the period.
    public let to: LocalDate
    /// The bucket allocation / number of weeks, largest remainder (earlier weeks take the odd units).
    public let allowance: Money
    /// Spending of the bucket from `from` to `to`.
    public let spent: Money
    /// `allowance - spent`; overspend does not carry into the next week.
    public let remaining: Money
}

/// The income figure of a period (B7).
@StateFields
public struct IncomeSummary: Hashable, Sendable {
    /// Where the amount comes from.
    public let source: IncomeSource
    /// The income used for the 50/30/20 suggestion and the unallocated amount.
    public let amount: Money
    /// Auto mode: the income transactions counted.
    public let counted: [TransactionID]
    /// Auto mode: incomes over 150% of the average of the last 3 periods, excluded unless confirmed.
    public let flaggedBonuses: [TransactionID]
}

/// A budget period report (B1-B7): live for an open period, frozen for a closed one (B6).
@StateFields
public struct BudgetReport: Hashable, Sendable {
    /// The period.
    public let period: PayPeriod
    /// Whether the report is at period end (a closed snapshot): only then can a status be `under`.
    public let isFinal: Bool
    /// The budget currency (the household's base currency).
    public let currency: Currency
    /// Categories with an allocation or spending, sorted by name then id.
    public let categories: [CategoryBudget]
    /// Needs, wants, savings.
    public let groups: [BudgetGroupSummary]
    /// The income figure.
    public let income: IncomeSummary
    /// The sum of all allocations.
    public let totalAllocated: Money
    /// `income - totalAllocated`; may be negative (B3).
    public let unallocated: Money
    /// Every live expense dated in the period, budgeted categories or not (US-054).
    public let totalSpent: Money
    /// The whole budget's status (US-054): the B4 thresholds applied to ``totalSpent`` against
    /// ``totalAllocated`` (over above +10%, under below 80% at period end, else on track);
    /// `unbudgeted` when nothing is allocated.
    public let status: BudgetStatus
    /// Weekly allowances for needs and wants (B5).
    public let weeklyAllowances: [WeeklyAllowance]
    /// Savings progress against the period's savings target, week by week (US-038).
    public let savings: SavingsProgress
    /// Currencies of amounts that could not be converted to the budget currency (N3); those
    /// amounts are left out.
    public let missingRates: [Currency]
}

/// A change that landed after its period was closed (B6): it is not in the snapshot.
@StateFields
public struct BudgetAdjustment: Hashable, Sendable {
    /// The start of the closed period it touches.
    public let periodStart: LocalDate
    /// The journal sequence number of the event.
    public let sequenceNumber: UInt64
    /// What happened: `transactionRecorded`, `transactionEdited`, `transactionDeleted`,
    /// `transactionRestored`, `categoryReassigned`, `budgetAllocated` or `budgetRemoved`.
    public let kind: String
    /// The transaction, for transaction changes.
    public let transactionID: TransactionID?
    /// The category concerned.
    public let categoryID: CategoryID
    /// The transaction amount or the new allocation (zero for `budgetRemoved`).
    public let amount: Money
}
