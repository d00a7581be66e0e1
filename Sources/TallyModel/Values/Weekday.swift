/// A day of the week, numbered as ISO 8601 numbers them: Monday 1 ... Sunday 7; commands and
/// JSON write the case name (`sunday`).
public enum Weekday: UInt8, Sendable, Hashable, CaseIterable {
    /// Monday (1), the first day of an ISO week and of a household's weeks by default (B5).
    case monday = 1
    /// Tuesday (2).
    case tuesday
    /// Wednesday (3).
    case wednesday
    /// Thursday (4).
    case thursday
    /// Friday (5).
    case friday
    /// Saturday (6).
    case saturday
    /// Sunday (7).
    case sunday
}

extension LocalDate {
    /// The first day of the week this date is in, for weeks that start on `first` (B5): the
    /// latest `first` on or before this date (``LocalDate/min`` if that would leave the calendar).
    public func startOfWeek(startingOn first: Weekday) -> LocalDate {
        let back = (isoWeekday - Int(first.rawValue) + 7) % 7
        return (try? adding(days: Int64(-back))) ?? .min
    }
}
