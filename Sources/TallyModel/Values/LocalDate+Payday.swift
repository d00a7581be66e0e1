extension LocalDate {
    /// The payday on `day` (1...31) in this date's month, clamped to the month's last day
    /// (B1: payday 31 is Feb 28 or 29). Nil for a day outside 1...31.
    public func payday(onDay day: Int) -> LocalDate? {
        guard (1...31).contains(day) else { return nil }
        return try? LocalDate(year: year, month: month, day: Swift.min(day, daysInMonth))
    }

    /// The first payday on `day` strictly after this date, with month-end clamping (B1).
    public func nextPayday(onDay day: Int) -> LocalDate? {
        if let candidate = payday(onDay: day), candidate > self { return candidate }
        return (try? startOfMonth.adding(months: 1))?.payday(onDay: day)
    }

    /// The latest payday on `day` on or before this date, with month-end clamping (B1).
    public func latestPayday(onDay day: Int) -> LocalDate? {
        if let candidate = payday(onDay: day), candidate <= self { return candidate }
        return (try? startOfMonth.adding(months: -1))?.payday(onDay: day)
    }
}
