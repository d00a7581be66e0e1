/// A transaction or a group expense: the item a settlement covers (S6), and the item an
/// attachment is on (T6, ``AttachedItem``).
public enum SettledItem: Hashable, Sendable {
    /// A household transaction (a settlement covers a shared one).
    case transaction(TransactionID)
    /// An expense recorded in a group.
    case groupExpense(GroupExpenseID)
}

extension SettledItem: CustomStringConvertible {
    /// `transaction <id>` or `group expense <id>`, as messages and logs name the item.
    public var description: String {
        switch self {
        case .transaction(let id): "transaction \(id)"
        case .groupExpense(let id): "group expense \(id)"
        }
    }
}
