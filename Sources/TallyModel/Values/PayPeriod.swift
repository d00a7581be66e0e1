/// A budget period: from a payday to the day before the next payday, both inclusive (B1).
@WireFields
public struct PayPeriod: Hashable, Comparable, Sendable {
    /// The first day (a payday).
    public let start: LocalDate
    /// The last day (the day before the next payday).
    public let end: LocalDate

    /// Creates a period.
    public init(start: LocalDate, end: LocalDate) {
        self.start = start
        self.end = end
    }

    /// Whether `date` lies in the period.
    public func contains(_ date: LocalDate) -> Bool { start <= date && date <= end }

    /// Orders periods by start, then end.
    public static func < (lhs: PayPeriod, rhs: PayPeriod) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }
}
