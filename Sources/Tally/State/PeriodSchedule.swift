import TallyModel

/// The payday schedule and the open budget period (B1, B6).
///
/// A period runs from a payday to the day before the next payday; in shorter months the payday
/// is the month's last day (31 -> Feb 28/29). A payday change inside a running period is kept
/// pending and takes effect when that period closes. Before the first `PaydaySet` there are no
/// periods, and nothing closes.
package struct PeriodSchedule: Sendable, Equatable {
    /// The payday in force for the open period.
    package internal(set) var payday: Int?
    /// A change waiting for the open period to end (B1).
    package internal(set) var pendingPayday: PaydaySet?
    /// The first day of the open period.
    package internal(set) var openStart: LocalDate?
    /// The last day of the open period.
    package internal(set) var openEnd: LocalDate?
    /// The last closed period, if any (start, end).
    package internal(set) var lastClosed: PeriodClosed?

    /// Creates an empty schedule.
    package init() {}

    mutating func apply(_ event: PaydaySet) {
        if openStart == nil {
            payday = event.day
            openStart = event.effectiveFrom
            openEnd = PeriodSchedule.periodEnd(start: event.effectiveFrom, payday: event.day)
        } else {
            pendingPayday = event
        }
    }

    mutating func apply(_ event: PeriodClosed) {
        lastClosed = event
        guard let start = try? event.periodEnd.adding(days: 1) else { return }
        openStart = start
        if let pending = pendingPayday, pending.effectiveFrom <= start {
            payday = pending.day
            pendingPayday = nil
        }
        openEnd = payday.flatMap { PeriodSchedule.periodEnd(start: start, payday: $0) }
    }

    /// The last day of the period starting on `start`: the day before the next payday.
    static func periodEnd(start: LocalDate, payday: Int) -> LocalDate? {
        guard let next = start.nextPayday(onDay: payday) else { return nil }
        return try? next.adding(days: -1)
    }
}
