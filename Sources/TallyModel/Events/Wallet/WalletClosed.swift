/// A wallet with zero balance and no live transactions was closed for good (W4).
///
/// Tag 205, schema version 1 (see ``EventTag/walletClosed`` and `Docs/Events.md`).
@WireFields
public struct WalletClosed: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The closing date.
    public let closedOn: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, closedOn: LocalDate) {
        self.walletID = walletID
        self.closedOn = closedOn
    }
}
