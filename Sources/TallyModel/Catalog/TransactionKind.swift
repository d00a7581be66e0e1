/// Whether a transaction is income or an expense (T1). Amounts are always positive.
///
/// The raw values are stored in events: never change or reuse one.
public enum TransactionKind: UInt8, CaseIterable, Hashable, Sendable {
    /// Adds to the wallet.
    case income = 0
    /// Reduces the wallet.
    case expense = 1
}
