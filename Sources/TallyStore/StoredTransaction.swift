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
    /// When it was recorded: the `recordedAt` of the event that recorded it (the host's clock
    /// at the command, G3).
    public let recordedAt: Timestamp
    /// When it was last edited (`TransactionEdited`, T2, an undone edit included); `nil` while
    /// never edited: Flow's "last edited" (US-018).
    public let lastEditedAt: Timestamp?
    /// When it was deleted, while it is deleted (T3); `nil` while live (a restore clears it):
    /// where its 30 days in "recently deleted" start (US-020,
    /// ``TransactionQuery/recentlyDeleted(asOf:visibleTo:)``).
    public let deletedAt: Timestamp?
    /// The amount as charged in another currency than the wallet's (T7, Swiff Phase 5
    /// currency); ``amount`` is what the wallet moved. `nil` for one in the wallet's currency.
    public let originalAmount: Money?
}
