/// A deleted group expense counts again (S7): the compensating event of a deletion (T5).
///
/// Tag 522, schema version 1 (see ``EventTag/groupExpenseRestored`` and `Docs/Events.md`).
@WireFields
public struct GroupExpenseRestored: Hashable, Sendable {
    /// The expense.
    public let expenseID: GroupExpenseID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(expenseID: GroupExpenseID) {
        self.expenseID = expenseID
    }
}
