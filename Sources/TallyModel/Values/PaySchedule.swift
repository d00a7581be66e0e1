/// The pay periods defined by `PaydaySet` events (B1): the one rule the engine (which closes
/// periods, B6) and the budget read model (which reports per period) both call.
///
/// Before the first rule's `effectiveFrom`, periods are calendar months (payday 1), the last
/// one cut short the day before the first rule starts. The first rule starts a period on its
/// `effectiveFrom`. A later rule takes effect at the first period boundary on or after its
/// `effectiveFrom`: a change inside a running period waits for that period to end (US-024/065).
/// From a boundary the period runs to the day before the next payday strictly after it; the
/// payday of a shorter month is its last day (31 -> Feb 28/29). A weekly or biweekly rule
/// (`intervalDays` 7 or 14) makes every period that many days from the boundary it starts at;
/// a twice-a-month rule (`secondDay`, e.g. the 1st and the 15th) has two paydays each month.
package struct PaySchedule: Hashable, Sendable {
    /// One `PaydaySet`: its day, the date it takes effect from, and the event's sequence number
    /// (which orders rules with the same `effectiveFrom`: the later one wins).
    package struct Rule: Hashable, Sendable {
        /// The payday, 1...31.
        package let day: Int
        /// The first day it may apply to.
        package let effectiveFrom: LocalDate
        /// The sequence number of its `PaydaySet`.
        package let sequenceNumber: UInt64
        /// Weekly (7) or biweekly (14) periods counted from the boundary the rule starts at;
        /// `nil`: monthly on `day`.
        package let intervalDays: Int?
        /// Twice a month: the second payday of each month, 1...31; `nil`: one payday.
        package let secondDay: Int?

        /// Creates a rule.
        package init(day: Int, effectiveFrom: LocalDate, sequenceNumber: UInt64, intervalDays: Int? = nil, secondDay: Int? = nil) {
            self.day = day
            self.effectiveFrom = effectiveFrom
            self.sequenceNumber = sequenceNumber
            self.intervalDays = intervalDays
            self.secondDay = secondDay
        }
    }

    /// The rules, sorted by `effectiveFrom` then sequence number.
    package private(set) var rules: [Rule] = []

    /// A schedule without paydays: calendar months.
    package init() {}

    /// A schedule of `rules` (sorted as ``rules`` is).
    package init(rules: [Rule]) { self.rules = rules }

    /// Adds a `PaydaySet`.
    package mutating func add(_ rule: Rule) {
        rules.append(rule)
        rules.sort { ($0.effectiveFrom, $0.sequenceNumber) < ($1.effectiveFrom, $1.sequenceNumber) }
    }

    /// The first payday for `day` strictly after `date` (clamped to the month's last day).
    static func nextPayday(_ day: Int, after date: LocalDate) -> LocalDate {
        date.nextPayday(onDay: day) ?? .max
    }

    /// The day before `date` (``LocalDate/min`` stays itself).
    package static func dayBefore(_ date: LocalDate) -> LocalDate { (try? date.adding(days: -1)) ?? .min }

    /// The day after `date` (``LocalDate/max`` stays itself).
    package static func dayAfter(_ date: LocalDate) -> LocalDate { (try? date.adding(days: 1)) ?? .max }

    /// The period containing `date`.
    package func period(containing date: LocalDate) -> PayPeriod {
        guard let first = rules.first, date >= first.effectiveFrom else {
            var end = date.endOfMonth
            if let firstRule = rules.first, end >= firstRule.effectiveFrom { end = Self.dayBefore(firstRule.effectiveFrom) }
            return PayPeriod(start: date.startOfMonth, end: end)
        }
        var start = first.effectiveFrom
        var day = first.day
        var interval = first.intervalDays
        var secondDay = first.secondDay
        var next = 1
        while true {
            while next < rules.count, rules[next].effectiveFrom <= start {
                day = rules[next].day
                interval = rules[next].intervalDays
                secondDay = rules[next].secondDay
                next += 1
            }
            // A weekly or biweekly rule counts its periods from the boundary it started at; a
            // twice-a-month rule ends a period before the nearer of its two paydays.
            let monthly = secondDay.map { min(Self.nextPayday(day, after: start), Self.nextPayday($0, after: start)) }
                ?? Self.nextPayday(day, after: start)
            let payday = interval.map { (try? start.adding(days: Int64($0))) ?? .max } ?? monthly
            let end = payday > start ? Self.dayBefore(payday) : LocalDate.max
            if date <= end || end == .max { return PayPeriod(start: start, end: end) }
            start = Self.dayAfter(end)
        }
    }

    /// The period before `period`.
    package func period(before period: PayPeriod) -> PayPeriod { self.period(containing: Self.dayBefore(period.start)) }
}
