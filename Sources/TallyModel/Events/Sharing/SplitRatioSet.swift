/// The household split ratio was set (S1).
///
/// Tag 500, schema version 1 (see ``EventTag/splitRatioSet`` and `Docs/Events.md`).
@WireFields
public struct SplitRatioSet: Hashable, Sendable {
    /// Manual or income-based (S4).
    public let mode: SplitRatioMode
    /// One ratio per member, summing to 10000 bp, each at least 100 bp.
    public let ratios: [MemberRatio]

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(mode: SplitRatioMode, ratios: [MemberRatio]) {
        self.mode = mode
        self.ratios = ratios
    }
}
