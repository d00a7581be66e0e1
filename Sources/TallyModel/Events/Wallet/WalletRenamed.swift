/// A wallet was renamed (W4).
///
/// Tag 201, schema version 1 (see ``EventTag/walletRenamed`` and `Docs/Events.md`).
@WireFields
public struct WalletRenamed: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The new name (W2).
    public let name: String

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, name: String) {
        self.walletID = walletID
        self.name = name
    }
}
