extension LocalDate {
    /// The number of days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int64 {
        LocalDate.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// Creates the date that lies `daysSinceEpoch` days after 1970-01-01.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` outside 0001-01-01...9999-12-31.
    public init(daysSinceEpoch: Int64) throws(ModelError) {
        guard (LocalDate.min.daysSinceEpoch...LocalDate.max.daysSinceEpoch).contains(daysSinceEpoch) else {
            throw .invalidDate(text: "day \(daysSinceEpoch)", reason: "outside 0001-01-01...9999-12-31")
        }
        let civil = LocalDate.civilFromDays(daysSinceEpoch)
        self.init(_unchecked: Int(civil.year), Int(civil.month), Int(civil.day))
    }

    /// The date `count` days later (earlier when negative).
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` when the result leaves 1...9999.
    public func adding(days count: Int64) throws(ModelError) -> LocalDate {
        let (target, overflow) = daysSinceEpoch.addingReportingOverflow(count)
        guard !overflow else { throw .invalidDate(text: "\(self) + \(count) days", reason: "overflow") }
        return try LocalDate(daysSinceEpoch: target)
    }

    /// The date `count` months later, clamped to the end of the target month (T4, B1):
    /// 2026-01-31 + 1 month = 2026-02-28; 2024-01-31 + 1 month = 2024-02-29.
    ///
    /// For recurring dates compute every occurrence from the anchor
    /// (`anchor.adding(months: n)`) rather than from the previous occurrence, so Jan 31 gives
    /// Feb 28 and then Mar 31, never drifting to the 28th.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` when the result leaves 1...9999.
    public func adding(months count: Int) throws(ModelError) -> LocalDate {
        let (target, overflow) = (year * 12 + month - 1).addingReportingOverflow(count)
        let targetYear = target >= 0 ? target / 12 : (target - 11) / 12
        guard !overflow, (LocalDate.yearMin...LocalDate.yearMax).contains(targetYear) else {
            throw .invalidDate(text: "\(self) + \(count) months", reason: "year outside 1...9999")
        }
        let targetMonth = target - targetYear * 12 + 1
        let clampedDay = Swift.min(day, LocalDate.daysInMonth(year: targetYear, month: targetMonth))
        return LocalDate(_unchecked: targetYear, targetMonth, clampedDay)
    }

    /// The number of days from `self` to `other` (positive when `other` is later).
    public func days(until other: LocalDate) -> Int64 { other.daysSinceEpoch - daysSinceEpoch }

    /// The ISO weekday: Monday = 1 ... Sunday = 7.
    public var isoWeekday: Int {
        let days = daysSinceEpoch
        // 1970-01-01 was a Thursday (4).
        let mondayBased = ((days % 7) + 7 + 3) % 7
        return Int(mondayBased) + 1
    }

    /// The Monday that starts this date's ISO week (B5).
    public var startOfISOWeek: LocalDate {
        let civil = LocalDate.civilFromDays(daysSinceEpoch - Int64(isoWeekday - 1))
        // Only 0001-01-01 (a Monday) could leave the range, and it is its own week start.
        return civil.year < 1 ? .min : LocalDate(_unchecked: Int(civil.year), Int(civil.month), Int(civil.day))
    }

    /// The first day of this date's month.
    public var startOfMonth: LocalDate { LocalDate(_unchecked: year, month, 1) }
    /// The last day of this date's month.
    public var endOfMonth: LocalDate { LocalDate(_unchecked: year, month, daysInMonth) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    /// Valid for any year whose day count fits comfortably in `Int64`.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
