/// A wallet's flow designation set (N5): whether its monthly net change counts as inflow,
/// outflow, both or neither, for every month or from a month on.
///
/// Tag 220, schema version 1 (see ``EventTag/walletDesignationSet`` and `Docs/Events.md`).
/// A wallet's designations form a timeline with one entry per `fromMonth` (a later event for
/// the same `fromMonth` replaces the entry; a `nil` designation removes it, which is what undo
/// appends when the month had none); for a month M the entry with the latest `fromMonth` at or
/// before M is in force (`nil` is before every month). A wallet without one is
/// ``WalletDesignation/neither`` (``WalletDesignation/inForce(_:in:)``).
@WireFields
public struct WalletDesignationSet: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// How its monthly change counts; `nil` removes the entry for `fromMonth`.
    public let designation: WalletDesignation?
    /// The first month it applies to; `nil` for every month before a later entry's.
    public let fromMonth: YearMonth?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, designation: WalletDesignation?, fromMonth: YearMonth?) {
        self.walletID = walletID
        self.designation = designation
        self.fromMonth = fromMonth
    }
}
