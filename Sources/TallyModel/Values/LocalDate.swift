/// A civil date (year, month, day) in the proleptic Gregorian calendar, with no time zone (G3).
///
/// Business dates in Tally (a transaction's date, a payday, a period start) are `LocalDate`s.
/// Years are limited to 1...9999 so that every date has a four-digit ISO form. All calendar
/// arithmetic is integer arithmetic; nothing reads `Calendar`, `Locale` or the clock.
public struct LocalDate: Hashable, Comparable, Sendable {
    /// The smallest supported year.
    public static let yearMin = 1
    /// The largest supported year.
    public static let yearMax = 9999
    /// The first supported date, 0001-01-01.
    public static let min = LocalDate(_unchecked: 1, 1, 1)
    /// The last supported date, 9999-12-31.
    public static let max = LocalDate(_unchecked: 9999, 12, 31)

    /// The year, 1...9999.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...28/29/30/31.
    public let day: Int

    /// Creates a date from its components.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` when the year is outside 1...9999, the
    ///   month outside 1...12 or the day beyond the month's length (2023-02-29 included).
    public init(year: Int, month: Int, day: Int) throws(ModelError) {
        guard (LocalDate.yearMin...LocalDate.yearMax).contains(year) else {
            throw .invalidDate(text: "\(year)-\(month)-\(day)", reason: "year outside 1...9999")
        }
        guard (1...12).contains(month) else {
            throw .invalidDate(text: "\(year)-\(month)-\(day)", reason: "month outside 1...12")
        }
        let length = LocalDate.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            throw .invalidDate(text: "\(year)-\(month)-\(day)", reason: "day outside 1...\(length)")
        }
        self.init(_unchecked: year, month, day)
    }

    /// Builds a date from components already known to be valid.
    init(_unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether `year` is a Gregorian leap year (divisible by 4, except centuries not divisible
    /// by 400: 1900 is not, 2000 and 2024 are).
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1...12) in `year`; 0 for an invalid month.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: isLeapYear(year) ? 29 : 28
        default: 0
        }
    }

    /// The number of days in this date's month.
    public var daysInMonth: Int { LocalDate.daysInMonth(year: year, month: month) }

    /// The month this date belongs to.
    public var yearMonth: YearMonth { YearMonth(_unchecked: year, month) }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension LocalDate: CustomStringConvertible {
    /// The ISO 8601 form `YYYY-MM-DD`.
    public var description: String { isoString }
}
