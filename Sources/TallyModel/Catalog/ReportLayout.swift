/// How a report cuts its dates (R4): the periods of an analytics report.
public enum ReportSpan: String, Hashable, Sendable, CaseIterable {
    /// Calendar months.
    case month
    /// ISO weeks, Monday to Sunday.
    case week
    /// Single days.
    case day
    /// The whole range as one period: its categories are the report by category.
    case range
}

/// Which dates a saved report covers, relative to the day it is run (Flow US-058 "any range"),
/// or fixed.
public enum ReportRange: UInt8, Hashable, Sendable, CaseIterable {
    /// The fixed dates ``ReportLayout/from`` through ``ReportLayout/through``.
    case custom = 0
    /// The month of the day it is run, from its first day through that day.
    case thisMonth = 1
    /// The whole month before.
    case lastMonth = 2
    /// The three whole months before this month.
    case lastThreeMonths = 3
    /// The twelve whole months before this month.
    case lastTwelveMonths = 4
    /// January 1st through the day it is run.
    case yearToDate = 5
    /// The whole year before.
    case lastYear = 6
    /// The 30 days ending with the day it is run.
    case lastThirtyDays = 7

    /// The name commands and reports write (`lastMonth`).
    public var name: String { String(describing: self) }
}

/// A report template (Flow US-058, Swiff 2.3.3): the range and the span of an analytics report
/// (R4) over the transactions of its view's ``TransactionFilter``.
@WireFields
public struct ReportLayout: Hashable, Sendable {
    /// Which dates, relative to the day it is run, or fixed.
    public var range: ReportRange
    /// How the dates are cut: month, week, day, or the range as one period (by category).
    public var span: ReportSpan
    /// The first day of a ``ReportRange/custom`` range; `nil` for the others.
    public var from: LocalDate?
    /// The last day of a ``ReportRange/custom`` range; `nil` for the others.
    public var through: LocalDate?

    /// Creates a layout; the engine checks that a custom range has both dates in order and the
    /// others none.
    public init(range: ReportRange, span: ReportSpan, from: LocalDate? = nil, through: LocalDate? = nil) {
        self.range = range
        self.span = span
        self.from = from
        self.through = through
    }

    /// The dates the report covers when run on `date`.
    /// - Throws: `ModelError` when a custom range lacks a date or ends before it starts, or the
    ///   range leaves the calendar.
    public func dates(on date: LocalDate) throws(ModelError) -> ClosedRange<LocalDate> {
        let month = date.yearMonth
        switch range {
        case .custom:
            guard let from, let through, from <= through else {
                throw .invalidDate(text: "\(from.map(\.isoString) ?? "-")...\(through.map(\.isoString) ?? "-")",
                                   reason: "a custom report range needs a first and a last day, in order")
            }
            return from...through
        case .thisMonth: return month.firstDay...date
        case .lastMonth:
            let last = try month.adding(months: -1)
            return last.firstDay...last.lastDay
        case .lastThreeMonths: return try month.adding(months: -3).firstDay...month.adding(months: -1).lastDay
        case .lastTwelveMonths: return try month.adding(months: -12).firstDay...month.adding(months: -1).lastDay
        case .yearToDate: return try LocalDate(year: date.year, month: 1, day: 1)...date
        case .lastYear: return try LocalDate(year: date.year - 1, month: 1, day: 1)...LocalDate(year: date.year - 1, month: 12, day: 31)
        case .lastThirtyDays: return try date.adding(days: -29)...date
        }
    }
}
