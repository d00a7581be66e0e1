/// The balance points of a wallet on a date were removed (W5): they count nowhere, as if never
/// recorded. Editing a balance point is this event followed by a new `BalanceRecorded`.
///
/// Tag 230, schema version 1 (see ``EventTag/balanceRemoved`` and `Docs/Events.md`).
@WireFields
public struct BalanceRemoved: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The date of the removed balance point.
    public let date: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, date: LocalDate) {
        self.walletID = walletID
        self.date = date
    }
}
