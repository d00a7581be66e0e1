/// A wallet (account) was opened (W1).
///
/// Tag 200, schema version 1 (see ``EventTag/walletOpened`` and `Docs/Events.md`).
@WireFields
public struct WalletOpened: Hashable, Sendable {
    /// The wallet.
    public let walletID: WalletID
    /// Its name, unique case-insensitively among wallets (W2).
    public let name: String
    /// Its kind; card and loan are liabilities.
    public let kind: WalletKind
    /// The currency of all its amounts.
    public let currency: Currency
    /// The balance at opening (for liabilities: the amount owed).
    public let openingBalance: Money
    /// The date of the opening balance.
    public let openedOn: LocalDate
    /// The owning member for a personal wallet; `nil` for a shared one.
    public let owner: PersonID?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        walletID: WalletID, name: String, kind: WalletKind, currency: Currency, openingBalance: Money,
        openedOn: LocalDate, owner: PersonID?
    ) {
        self.walletID = walletID
        self.name = name
        self.kind = kind
        self.currency = currency
        self.openingBalance = openingBalance
        self.openedOn = openedOn
        self.owner = owner
    }
}
