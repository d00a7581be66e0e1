/// The payday that starts each budget period was set (B1).
///
/// Tag 600, schema version 3 (see ``EventTag/paydaySet`` and `Docs/Events.md`): version 2 added
/// `intervalDays` (weekly and biweekly paydays), version 3 `secondDay` (twice a month).
@WireFields
public struct PaydaySet: Hashable, Sendable {
    /// Day of month 1...31; clamped to the month's last day in shorter months.
    public let day: Int
    /// The first period start it applies to.
    public let effectiveFrom: LocalDate
    /// Weekly (7) or biweekly (14) paydays: every period is this many days, counted from
    /// `effectiveFrom`, and `day` is ignored; `nil` (and every version 1 payload): monthly on `day`.
    @WireSince(2) public let intervalDays: Int?
    /// Twice a month (semimonthly, e.g. the 1st and the 15th): the month's second payday,
    /// 1...31, after `day`, clamped like it; a period runs from one of the two paydays to the
    /// day before the next. `nil` (and every version 1 and 2 payload): one payday a month.
    @WireSince(3) public let secondDay: Int?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(day: Int, effectiveFrom: LocalDate, intervalDays: Int? = nil, secondDay: Int? = nil) {
        self.day = day
        self.effectiveFrom = effectiveFrom
        self.intervalDays = intervalDays
        self.secondDay = secondDay
    }
}
