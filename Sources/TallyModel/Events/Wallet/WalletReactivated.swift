/// A deactivated wallet counts again (W4).
///
/// Tag 204, schema version 1 (see ``EventTag/walletReactivated`` and `Docs/Events.md`).
@WireFields
public struct WalletReactivated: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID) {
        self.walletID = walletID
    }
}
