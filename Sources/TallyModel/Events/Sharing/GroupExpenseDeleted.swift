/// A group expense was deleted (S7): it counts in no balance; undo restores it (T5).
///
/// Tag 521, schema version 1 (see ``EventTag/groupExpenseDeleted`` and `Docs/Events.md`).
@WireFields
public struct GroupExpenseDeleted: Hashable, Sendable {
    /// The expense.
    public let expenseID: GroupExpenseID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(expenseID: GroupExpenseID) {
        self.expenseID = expenseID
    }
}
