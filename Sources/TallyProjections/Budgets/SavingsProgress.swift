import TallyModel

/// Where a period's savings target comes from (US-038).
public enum SavingsTargetSource: UInt8, Hashable, Sendable {
    /// The household allocated its savings categories: the sum of those allocations (B2).
    case allocated = 0
    /// Nothing is allocated to savings: 20% of the period's income (B3).
    case suggested = 1
}

/// One Monday-based week of a period's savings progress (US-038): the weekly share of the
/// savings target and what was put aside that week.
@StateFields
public struct WeeklySavings: Hashable, Sendable {
    /// The Monday the week starts on (may precede the period).
    public let weekStart: LocalDate
    /// The first day of the week inside the period.
    public let from: LocalDate
    /// The last day of the week inside the period.
    public let to: LocalDate
    /// The period's savings target / number of weeks, largest remainder (earlier weeks take the
    /// odd units), as B5 divides an allowance.
    public let target: Money
    /// Live entries in savings categories from `from` to `to`.
    public let saved: Money
    /// Whether `saved >= target` (with a target of zero: never, there is nothing to celebrate).
    public let isMet: Bool
}

/// A period's savings progress against its target (US-038): household figures, like every
/// budget figure (Docs/Privacy.md).
@StateFields
public struct SavingsProgress: Hashable, Sendable {
    /// The period's savings target.
    public let target: Money
    /// Where the target comes from.
    public let targetSource: SavingsTargetSource
    /// Live entries in savings categories dated in the period.
    public let saved: Money
    /// One entry per Monday-based week overlapping the period, oldest first; it resets each
    /// Monday and nothing carries from one week to the next.
    public let weeks: [WeeklySavings]
}

extension SavingsProgress {
    /// The week containing `date`, if it lies inside the period ("Savings this week").
    public func week(containing date: LocalDate) -> WeeklySavings? {
        weeks.first { $0.from <= date && date <= $0.to }
    }
}
