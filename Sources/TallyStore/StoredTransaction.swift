import TallyModel

/// A transaction as the store lists it: the fields a list screen shows and filters on. Personal
/// texts (the note) are not in the store; the journal keeps them sealed (P1).
public struct StoredTransaction: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID
    /// Its wallet.
    public let walletID: WalletID
    /// Its category.
    public let categoryID: CategoryID
    /// Who paid.
    public let payer: PersonID
    /// Income or expense.
    public let kind: TransactionKind
    /// The amount, positive.
    public let amount: Money
    /// The business date.
    public let date: LocalDate
    /// `false` while deleted (T3).
    public let isLive: Bool
    /// The sequence number of the event that first recorded it.
    public let sequenceNumber: UInt64
}
