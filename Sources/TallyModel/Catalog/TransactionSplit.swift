/// The split of a shared transaction: the ratios used and the resolved shares (S1-S3, G4).
///
/// A transaction without a split is personal. The shares are what projections use; the ratios
/// are kept to show how the split was decided.
@WireFields
public struct TransactionSplit: Hashable, Sendable {
    /// The ratios applied: the household ratio at the time, or this transaction's override.
    public var ratios: [MemberRatio]
    /// Whether ``ratios`` is a per-transaction override rather than the household ratio (S2).
    public var isOverride: Bool
    /// Each person's part of the amount, summing exactly to it (S3).
    public var shares: [PersonShare]

    /// Creates a split.
    public init(ratios: [MemberRatio], isOverride: Bool, shares: [PersonShare]) {
        self.ratios = ratios
        self.isOverride = isOverride
        self.shares = shares
    }
}
