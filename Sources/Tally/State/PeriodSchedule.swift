import TallyModel

/// The open budget period, as validation needs it (B1, B6).
///
/// The paydays are the budget read model's (``BudgetProjection/paySchedule``, the one book of
/// the `PaydaySet` rules) and where periods begin and end is ``PaySchedule``'s rule; this keeps
/// only the last closed period and the open period that follows it. Before the first
/// `PaydaySet` there are no periods, and nothing closes.
package struct PeriodSchedule: Sendable, Equatable {
    /// The last closed period, if any (start, end).
    package private(set) var lastClosed: PeriodClosed?
    /// The open period: the one after ``lastClosed`` (the first payday's, before any close);
    /// derived from the paydays and ``lastClosed``, kept so that every command's close check
    /// costs O(1).
    package private(set) var open: PayPeriod?

    /// Creates an empty schedule.
    package init() {}

    /// A schedule restored from a checkpoint; ``open`` is derived once the paydays are known
    /// (``update(paydays:)``).
    init(lastClosed: PeriodClosed?) {
        self.lastClosed = lastClosed
    }

    /// The first day of the open period.
    package var openStart: LocalDate? { open?.start }
    /// The last day of the open period.
    package var openEnd: LocalDate? { open?.end }

    /// Derives the open period again after the paydays changed (a `PaydaySet`, or a restore).
    mutating func update(paydays: PaySchedule) {
        open = Self.openPeriod(paydays, after: lastClosed)
    }

    /// A `PeriodClosed`: the open period is the one after it.
    mutating func close(_ event: PeriodClosed, paydays: PaySchedule) {
        lastClosed = event
        update(paydays: paydays)
    }

    /// The period starting the day after `lastClosed` ends (the first payday's, before any
    /// close), ending where ``PaySchedule`` ends the period containing that day.
    static func openPeriod(_ paydays: PaySchedule, after lastClosed: PeriodClosed?) -> PayPeriod? {
        guard let first = paydays.rules.first else { return nil }
        let start = lastClosed.map { PaySchedule.dayAfter($0.periodEnd) } ?? first.effectiveFrom
        return PayPeriod(start: start, end: paydays.period(containing: start).end)
    }
}
