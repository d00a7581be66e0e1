/// How often a recurring template occurs (T4, R1).
///
/// The raw values are stored in events: never change or reuse one.
public enum RecurrenceFrequency: UInt8, CaseIterable, Hashable, Sendable {
    /// Every 7 days from the anchor.
    case weekly = 0
    /// Every 14 days from the anchor.
    case biweekly = 1
    /// Every month, clamped to the month end.
    case monthly = 2
    /// Every 3 months, clamped.
    case quarterly = 3
    /// Every 12 months, clamped (Feb 29 -> Feb 28): annual.
    case yearly = 4
    /// Every day (R1).
    case daily = 5
    /// Every 6 months, clamped (R1).
    case semiannual = 6
}

extension RecurrenceFrequency {
    /// The date of occurrence `index` (0 is the anchor itself), always computed from the
    /// anchor so that month-end dates clamp without drifting (T4): a monthly template anchored
    /// on Jan 31 occurs on Feb 28 and then Mar 31.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` when the date leaves years 1...9999.
    public func occurrence(_ index: Int, from anchor: LocalDate) throws(ModelError) -> LocalDate {
        switch self {
        case .daily: try anchor.adding(days: Int64(index))
        case .weekly: try anchor.adding(days: Int64(index) * 7)
        case .biweekly: try anchor.adding(days: Int64(index) * 14)
        case .monthly: try anchor.adding(months: index)
        case .quarterly: try anchor.adding(months: index * 3)
        case .semiannual: try anchor.adding(months: index * 6)
        case .yearly: try anchor.adding(months: index * 12)
        }
    }

    /// How many occurrences make a year for the monthly equivalent (R1): daily 365, weekly 52,
    /// biweekly 26, monthly 12, quarterly 4, semi-annual 2, annual 1. A price times this over
    /// 12 is the monthly equivalent, exact before it is rounded once (G2).
    public var occurrencesPerYear: Int64 {
        switch self {
        case .daily: 365
        case .weekly: 52
        case .biweekly: 26
        case .monthly: 12
        case .quarterly: 4
        case .semiannual: 2
        case .yearly: 1
        }
    }

    /// The first occurrence index whose date can be on or after `date` (a lower bound: the
    /// caller still skips earlier dates), so a walk from a late date does not start at the anchor.
    func firstIndex(onOrAfter date: LocalDate, anchor: LocalDate) -> Int {
        guard anchor < date else { return 0 }
        let days = anchor.days(until: date)
        let months = (date.year - anchor.year) * 12 + (date.month - anchor.month)
        let index: Int64 = switch self {
        case .daily: days
        case .weekly: days / 7
        case .biweekly: days / 14
        case .monthly: Int64(months - 1)
        case .quarterly: Int64(months / 3 - 1)
        case .semiannual: Int64(months / 6 - 1)
        case .yearly: Int64(months / 12 - 1)
        }
        return Int(max(0, index))
    }
}
