/// Money moved between two wallets; both amounts are recorded (equal when the currencies are) (W6).
///
/// Tag 207, schema version 2 (see ``EventTag/transferRecorded`` and `Docs/Events.md`).
@WireFields
public struct TransferRecorded: Hashable, Sendable {
    /// The transfer.
    public let transferID: TransferID
    /// The wallet the money left.
    public let fromWalletID: WalletID
    /// The wallet the money entered.
    public let toWalletID: WalletID
    /// The amount leaving, in the source wallet's currency, positive.
    public let amountSent: Money
    /// The amount arriving, in the target wallet's currency, positive.
    public let amountReceived: Money
    /// The business date.
    public let date: LocalDate
    /// A free-text note, personal text of the event's actor (P1).
    public let note: PersonalText?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        transferID: TransferID, fromWalletID: WalletID, toWalletID: WalletID, amountSent: Money,
        amountReceived: Money, date: LocalDate, note: PersonalText?
    ) {
        self.transferID = transferID
        self.fromWalletID = fromWalletID
        self.toWalletID = toWalletID
        self.amountSent = amountSent
        self.amountReceived = amountReceived
        self.date = date
        self.note = note
    }
}
