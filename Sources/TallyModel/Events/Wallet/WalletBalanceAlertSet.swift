/// A wallet's balance alert was set (R6, Tim "Post-MVP alerts"): an alert is in force while the
/// wallet's balance at the end of the day asked is below `below` or above `above`, amounts in
/// the wallet's currency. Both `nil` removes the alert; the undo records the alert it replaced.
///
/// Tag 222, schema version 1 (see ``EventTag/walletBalanceAlertSet`` and `Docs/Events.md`).
@WireFields
public struct WalletBalanceAlertSet: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// An alert while the balance is below this amount; `nil`: none.
    public let below: Money?
    /// An alert while the balance is above this amount; `nil`: none.
    public let above: Money?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, below: Money?, above: Money?) {
        self.walletID = walletID
        self.below = below
        self.above = above
    }
}
