/// A group expense was edited; carries the whole expense after the edit, with its re-resolved
/// owed amounts (S7, S3, G4). Its id and group are the recorded expense's.
///
/// Tag 520, schema version 1 (see ``EventTag/groupExpenseEdited`` and `Docs/Events.md`).
@WireFields
public struct GroupExpenseEdited: Hashable, Sendable {
    /// The expense after the edit.
    public let expense: GroupExpenseRecorded

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(expense: GroupExpenseRecorded) {
        self.expense = expense
    }
}
