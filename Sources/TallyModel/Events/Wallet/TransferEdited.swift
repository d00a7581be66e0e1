/// A transfer was edited; carries every field after the edit, like `TransactionEdited` (W6).
///
/// Tag 231, schema version 1 (see ``EventTag/transferEdited`` and `Docs/Events.md`).
@WireFields
public struct TransferEdited: Hashable, Sendable {
    /// The transfer.
    public let transferID: TransferID
    /// The wallet the money leaves.
    public let fromWalletID: WalletID
    /// The wallet the money enters.
    public let toWalletID: WalletID
    /// The amount leaving, in the source wallet's currency, positive.
    public let amountSent: Money
    /// The amount arriving, in the target wallet's currency, positive.
    public let amountReceived: Money
    /// The business date.
    public let date: LocalDate
    /// A free-text note, personal text of its author (P1); an edit that keeps the note keeps
    /// its author.
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

    /// The edit of `transfer` to its fields: what undo records to put a transfer back (T5).
    public init(restoring transfer: TransferRecorded) {
        self.init(
            transferID: transfer.transferID, fromWalletID: transfer.fromWalletID, toWalletID: transfer.toWalletID,
            amountSent: transfer.amountSent, amountReceived: transfer.amountReceived, date: transfer.date, note: transfer.note)
    }

    /// The transfer as it stands after the edit, in the form it was recorded in.
    public var transfer: TransferRecorded {
        TransferRecorded(
            transferID: transferID, fromWalletID: fromWalletID, toWalletID: toWalletID, amountSent: amountSent,
            amountReceived: amountReceived, date: date, note: note)
    }
}
