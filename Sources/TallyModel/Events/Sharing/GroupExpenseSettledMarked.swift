/// A group expense was marked settled, or the mark was taken back (Swiff "Mark as Settled"):
/// record-keeping only, balances do not change (S7, Docs/Editing.md).
///
/// Tag 523, schema version 1 (see ``EventTag/groupExpenseSettledMarked`` and `Docs/Events.md`).
@WireFields
public struct GroupExpenseSettledMarked: Hashable, Sendable {
    /// The expense.
    public let expenseID: GroupExpenseID
    /// Whether it is marked settled after the event.
    public let isSettled: Bool

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(expenseID: GroupExpenseID, isSettled: Bool) {
        self.expenseID = expenseID
        self.isSettled = isSettled
    }
}
