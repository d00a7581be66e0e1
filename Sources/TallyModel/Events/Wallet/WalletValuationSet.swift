/// A wallet's valuation set (W5): from this event on, its value is tracked through its
/// transactions or observed through its balance points. `openWallet` with a valuation other
/// than its kind's default records one right after `WalletOpened`; `setWalletValuation`
/// changes it later (undo sets the previous one back: `nil`, the kind's default, when it had
/// none).
///
/// Tag 221, schema version 1 (see ``EventTag/walletValuationSet`` and `Docs/Events.md`).
@WireFields
public struct WalletValuationSet: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// Tracked or observed; `nil`: the kind's default again (what undo records for a wallet
    /// that had none set).
    public let valuation: WalletValuation?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, valuation: WalletValuation?) {
        self.walletID = walletID
        self.valuation = valuation
    }
}
