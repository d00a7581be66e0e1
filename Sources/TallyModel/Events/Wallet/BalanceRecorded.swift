/// A balance point: the value (observed wallets) or an assertion (tracked wallets) on a date (W5).
///
/// Tag 206, schema version 1 (see ``EventTag/balanceRecorded`` and `Docs/Events.md`).
@WireFields
public struct BalanceRecorded: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// The date of the balance.
    public let date: LocalDate
    /// The balance in the wallet's currency.
    public let balance: Money

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(walletID: WalletID, date: LocalDate, balance: Money) {
        self.walletID = walletID
        self.date = date
        self.balance = balance
    }
}
