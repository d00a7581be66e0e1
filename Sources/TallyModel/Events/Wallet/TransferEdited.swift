/// A transfer was edited; carries the whole transfer after the edit, like `TransactionEdited`
/// (W6). Its layout is ``TransferRecorded``'s fields in their order: one field list for both.
///
/// Tag 231, schema version 1 (see ``EventTag/transferEdited`` and `Docs/Events.md`).
@WireFields
public struct TransferEdited: Hashable, Sendable {
    /// The transfer as it stands after the edit, in the form it was recorded in; an edit that
    /// keeps the note keeps its author (P1).
    public let transfer: TransferRecorded

    /// Creates the payload; the engine validates it against the ledger before recording. Undo
    /// records one with the transfer as it was (T5).
    public init(transfer: TransferRecorded) {
        self.transfer = transfer
    }
}
