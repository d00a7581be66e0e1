/// A wallet's kind changed (only while it has no transactions) (W4).
///
/// Tag 202, schema version 1 (see ``EventTag/walletKindChanged`` and `Docs/Events.md`).
@WireFields
public struct WalletKindChanged: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The new kind.
    public let kind: WalletKind

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, kind: WalletKind) {
        self.walletID = walletID
        self.kind = kind
    }
}
