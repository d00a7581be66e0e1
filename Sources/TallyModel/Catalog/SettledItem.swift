/// An item a settlement covers (S6): a shared household transaction or a group expense.
public enum SettledItem: Hashable, Sendable {
    /// A shared household transaction.
    case transaction(TransactionID)
    /// An expense recorded in a group.
    case groupExpense(GroupExpenseID)
}
