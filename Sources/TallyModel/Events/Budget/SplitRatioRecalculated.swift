/// An income-based split ratio was computed again from the members' incomes (S4, Flow US-067):
/// at a period start (the engine appends it after the `PeriodClosed` of the period before) or
/// on request (`setSplitRatio` with `mode: incomeBased`, "Recalculate now").
///
/// Tag 605, schema version 1 (see ``EventTag/splitRatioRecalculated`` and `Docs/Events.md`).
@WireFields
public struct SplitRatioRecalculated: Hashable, Sendable {
    /// The period whose start triggered it; `nil` when it was computed on request.
    public let periodStart: LocalDate?
    /// The ratios in force from now on: one per member, summing to 10000 bp, each at least 100 bp.
    public let ratios: [MemberRatio]
    /// Whether no income was known (or a member would get under 1%), so the manual ratios the
    /// household gave with `setSplitRatio` are used.
    public let isFallback: Bool

    /// Creates the payload; the engine computes it from the ledger before recording.
    public init(periodStart: LocalDate?, ratios: [MemberRatio], isFallback: Bool) {
        self.periodStart = periodStart
        self.ratios = ratios
        self.isFallback = isFallback
    }
}
