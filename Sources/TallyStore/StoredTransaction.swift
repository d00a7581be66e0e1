import TallyModel

/// A transaction as the store lists it: the fields a list screen shows and filters on, with its
/// title and subtitle (Swiff 1.1.2); the note is ``TransactionRow/note``.
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
    /// Who was paid or paid: the title a list shows (Swiff 1.1.2 Transaction's title, Flow's
    /// merchant, US-072), personal text of its writer (P1), its text `nil` once they are
    /// forgotten (P3); `nil` when none was given.
    public let payee: PersonalText?
    /// The line a list shows under the title (Swiff 1.1.2), personal text as ``payee``.
    public let subtitle: PersonalText?
}
