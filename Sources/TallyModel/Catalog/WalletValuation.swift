/// How a wallet's value is known (W5): tracked through its transactions (W3), or observed
/// through balance points, each setting the value from its date on. Every wallet has one,
/// chosen at open and changeable (`WalletValuationSet`); a wallet never given one has its
/// kind's default (``WalletKind/defaultValuation``).
///
/// The raw values are stored in events: never change or reuse one.
public enum WalletValuation: UInt8, CaseIterable, Hashable, Sendable {
    /// The value is derived from the opening balance and the movements (W3); a balance point is
    /// an assertion the reconciliation compares with (Flow US-073).
    case tracked = 0
    /// The value is the latest balance point on or before the date (Drishti E6-S4, Tim); before
    /// the first point, the tracked value.
    case observed = 1
}

extension WalletKind {
    /// The valuation of a wallet of this kind that was never given one (W5): property and
    /// investment are observed, the rest tracked.
    public var defaultValuation: WalletValuation { self == .property || self == .investment ? .observed : .tracked }
}
