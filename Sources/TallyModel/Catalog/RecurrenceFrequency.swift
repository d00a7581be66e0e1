/// How often a recurring template occurs (T4).
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
    /// Every 12 months, clamped (Feb 29 -> Feb 28).
    case yearly = 4
}

extension RecurrenceFrequency {
    /// The date of occurrence `index` (0 is the anchor itself), always computed from the
    /// anchor so that month-end dates clamp without drifting (T4): a monthly template anchored
    /// on Jan 31 occurs on Feb 28 and then Mar 31.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` when the date leaves years 1...9999.
    public func occurrence(_ index: Int, from anchor: LocalDate) throws(ModelError) -> LocalDate {
        switch self {
        case .weekly: try anchor.adding(days: Int64(index) * 7)
        case .biweekly: try anchor.adding(days: Int64(index) * 14)
        case .monthly: try anchor.adding(months: index)
        case .quarterly: try anchor.adding(months: index * 3)
        case .yearly: try anchor.adding(months: index * 12)
        }
    }
}
