/// The payday that starts each budget period was set (B1).
///
/// Tag 600, schema version 1 (see ``EventTag/paydaySet`` and `Docs/Events.md`).
@WireFields
public struct PaydaySet: Hashable, Sendable {
    /// Day of month 1...31; clamped to the month's last day in shorter months.
    public let day: Int
    /// The first period start it applies to.
    public let effectiveFrom: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(day: Int, effectiveFrom: LocalDate) {
        self.day = day
        self.effectiveFrom = effectiveFrom
    }
}
