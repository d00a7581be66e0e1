import TallyModel

/// The paydays and the open budget period, as validation needs them (B1, B6).
///
/// Where periods begin and end is ``PaySchedule``'s rule, the one the budget read model uses;
/// this keeps the schedule's rules, the last closed period and the open period that follows
/// it. Before the first `PaydaySet` there are no periods, and nothing closes.
package struct PeriodSchedule: Sendable, Equatable {
    /// The `PaydaySet` rules (B1).
    package private(set) var paydays = PaySchedule()
    /// The last closed period, if any (start, end).
    package private(set) var lastClosed: PeriodClosed?
    /// The open period: the one after ``lastClosed`` (the first payday's, before any close);
    /// derived from ``paydays`` and ``lastClosed``, kept so that every command's close check
    /// costs O(1).
    package private(set) var open: PayPeriod?

    /// Creates an empty schedule.
    package init() {}

    /// A schedule restored from a checkpoint.
    init(paydays: PaySchedule, lastClosed: PeriodClosed?) {
        self.paydays = paydays
        self.lastClosed = lastClosed
        open = Self.openPeriod(paydays, after: lastClosed)
    }

    /// The first day of the open period.
    package var openStart: LocalDate? { open?.start }
    /// The last day of the open period.
    package var openEnd: LocalDate? { open?.end }

    mutating func apply(_ event: PaydaySet, sequenceNumber: UInt64) {
        paydays.add(PaySchedule.Rule(
            day: event.day, effectiveFrom: event.effectiveFrom, sequenceNumber: sequenceNumber, intervalDays: event.intervalDays))
        open = Self.openPeriod(paydays, after: lastClosed)
    }

    mutating func apply(_ event: PeriodClosed) {
        lastClosed = event
        open = Self.openPeriod(paydays, after: lastClosed)
    }

    /// The period starting the day after `lastClosed` ends (the first payday's, before any
    /// close), ending where ``PaySchedule`` ends the period containing that day.
    static func openPeriod(_ paydays: PaySchedule, after lastClosed: PeriodClosed?) -> PayPeriod? {
        guard let first = paydays.rules.first else { return nil }
        let start = lastClosed.map { PaySchedule.dayAfter($0.periodEnd) } ?? first.effectiveFrom
        return PayPeriod(start: start, end: paydays.period(containing: start).end)
    }
}
