import TallyModel

/// The pay periods defined by `PaydaySet` events (B1).
///
/// Before the first rule's `effectiveFrom`, periods are calendar months (payday 1), the last
/// one cut short the day before the first rule starts. The first rule starts a period on its
/// `effectiveFrom`. A later rule takes effect at the first period boundary on or after its
/// `effectiveFrom`: a change inside a running period waits for that period to end (US-024/065).
/// From a boundary the period runs to the day before the next payday strictly after it; the
/// payday of a shorter month is its last day (31 -> Feb 28/29).
struct PaySchedule: Hashable, Sendable {
    struct Rule: Hashable, Sendable {
        let day: Int
        let effectiveFrom: LocalDate
        let sequenceNumber: UInt64
    }

    private(set) var rules: [Rule] = []

    init() {}
    init(rules: [Rule]) { self.rules = rules }

    mutating func add(_ rule: Rule) {
        rules.append(rule)
        rules.sort { ($0.effectiveFrom, $0.sequenceNumber) < ($1.effectiveFrom, $1.sequenceNumber) }
    }

    /// The first payday for `day` strictly after `date` (clamped to the month's last day).
    static func nextPayday(_ day: Int, after date: LocalDate) -> LocalDate {
        date.nextPayday(onDay: day) ?? .max
    }

    static func dayBefore(_ date: LocalDate) -> LocalDate { (try? date.adding(days: -1)) ?? .min }
    static func dayAfter(_ date: LocalDate) -> LocalDate { (try? date.adding(days: 1)) ?? .max }

    /// The period containing `date`.
    func period(containing date: LocalDate) -> PayPeriod {
        guard let first = rules.first, date >= first.effectiveFrom else {
            var end = date.endOfMonth
            if let firstRule = rules.first, end >= firstRule.effectiveFrom { end = Self.dayBefore(firstRule.effectiveFrom) }
            return PayPeriod(start: date.startOfMonth, end: end)
        }
        var start = first.effectiveFrom
        var day = first.day
        var next = 1
        while true {
            while next < rules.count, rules[next].effectiveFrom <= start {
                day = rules[next].day
                next += 1
            }
            let payday = Self.nextPayday(day, after: start)
            let end = payday > start ? Self.dayBefore(payday) : LocalDate.max
            if date <= end || end == .max { return PayPeriod(start: start, end: end) }
            start = Self.dayAfter(end)
        }
    }

    /// The period before `period`.
    func period(before period: PayPeriod) -> PayPeriod { self.period(containing: Self.dayBefore(period.start)) }
}

extension PaySchedule.Rule: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        day.encode(to: &writer)
        effectiveFrom.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(day: try reader.read(), effectiveFrom: try reader.read(), sequenceNumber: try reader.read())
    }
}

extension PaySchedule: StateCodable {
    func encode(to writer: inout BinaryWriter) { rules.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(rules: try reader.read()) }
}
