/// A closed wallet was opened again (W4, issue 31): it counts in totals and takes new entries
/// again, with the balance it was closed with (zero) and its history as it was.
///
/// Tag 209, schema version 1 (see ``EventTag/walletReopened`` and `Docs/Events.md`).
@WireFields
public struct WalletReopened: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID) {
        self.walletID = walletID
    }
}
