/// A budget period closed; its report is frozen as a snapshot (B6).
///
/// Tag 604, schema version 1 (see ``EventTag/periodClosed`` and `Docs/Events.md`).
@WireFields
public struct PeriodClosed: Hashable, Sendable {
    /// The first day of the period.
    public let periodStart: LocalDate
    /// The last day of the period.
    public let periodEnd: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(periodStart: LocalDate, periodEnd: LocalDate) {
        self.periodStart = periodStart
        self.periodEnd = periodEnd
    }
}
