/// A calendar month such as `2026-11`, the unit of the net-worth series (N2).
public struct YearMonth: Hashable, Comparable, Sendable {
    /// The year, 1...9999.
    public let year: Int
    /// The month, 1...12.
    public let month: Int

    /// Creates a month.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` for a year outside 1...9999 or a month
    ///   outside 1...12.
    public init(year: Int, month: Int) throws(ModelError) {
        _ = try LocalDate(year: year, month: month, day: 1)
        self.init(_unchecked: year, month)
    }

    init(_unchecked year: Int, _ month: Int) {
        self.year = year
        self.month = month
    }

    /// Parses `YYYY-MM`.
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` for any other shape.
    public init(iso text: String) throws(ModelError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
              let year = ISODigits.number(bytes, 0..<4), let month = ISODigits.number(bytes, 5..<7)
        else { throw .invalidDate(text: text, reason: "expected YYYY-MM") }
        do {
            try self.init(year: year, month: month)
        } catch {
            throw .invalidDate(text: text, reason: "no such month")
        }
    }

    /// The first day of the month.
    public var firstDay: LocalDate { LocalDate(_unchecked: year, month, 1) }
    /// The last day of the month (28, 29, 30 or 31).
    public var lastDay: LocalDate {
        LocalDate(_unchecked: year, month, LocalDate.daysInMonth(year: year, month: month))
    }

    /// The month `count` months later (earlier when negative).
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` when the year leaves 1...9999.
    public func adding(months count: Int) throws(ModelError) -> YearMonth {
        try firstDay.adding(months: count).yearMonth
    }

    /// `YYYY-MM`, e.g. `2026-11`.
    public var isoString: String { String(firstDay.isoString.prefix(7)) }

    /// Orders months chronologically.
    public static func < (lhs: YearMonth, rhs: YearMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}

extension YearMonth: CustomStringConvertible {
    /// `YYYY-MM`.
    public var description: String { isoString }
}
