/// An income or expense was recorded (T1).
///
/// Tag 400, schema version 5 (see ``EventTag/transactionRecorded`` and `Docs/Events.md`).
@WireFields
public struct TransactionRecorded: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID
    /// Its fields, with resolved split shares (G4). Version 1 had no `tags`.
    public let details: TransactionDetails
    /// How the amount was split with chosen people, as entered (S3, Docs/Editing.md "Splitting a
    /// household transaction with people"); the resolved parts are `details.split.shares` (G4).
    /// `nil` for a personal transaction or one split by the household ratio. Added by version 4.
    @WireSince(4) public let splitWith: GroupSplit?
    /// The amount as charged in another currency than the wallet's (T7); `details.amount` is
    /// what the wallet moved. `nil` for a transaction in the wallet's currency. Added by version 5.
    @WireSince(5) public let originalAmount: Money?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID, details: TransactionDetails, splitWith: GroupSplit? = nil, originalAmount: Money? = nil) {
        self.transactionID = transactionID
        self.details = details
        self.splitWith = splitWith
        self.originalAmount = originalAmount
    }
}
