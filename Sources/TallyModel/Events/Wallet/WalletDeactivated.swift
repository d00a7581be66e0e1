/// A wallet was deactivated: excluded from totals, history kept (W4).
///
/// Tag 203, schema version 1 (see ``EventTag/walletDeactivated`` and `Docs/Events.md`).
@WireFields
public struct WalletDeactivated: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID) {
        self.walletID = walletID
    }
}
