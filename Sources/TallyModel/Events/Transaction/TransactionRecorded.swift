/// An income or expense was recorded (T1).
///
/// Tag 400, schema version 6 (see ``EventTag/transactionRecorded`` and `Docs/Events.md`).
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
    /// Who was paid or paid: the title a list shows (Swiff 1.1.2 Transaction's title, Flow's
    /// merchant, US-072), personal text of the actor (P1). `nil` when none was given. Added by
    /// version 6.
    @WireSince(6) public let payee: PersonalText?
    /// A second line under the title (Swiff 1.1.2 Transaction's subtitle), personal text of the
    /// actor (P1). `nil` when none was given. Added by version 6.
    @WireSince(6) public let subtitle: PersonalText?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(
        transactionID: TransactionID, details: TransactionDetails, splitWith: GroupSplit? = nil, originalAmount: Money? = nil,
        payee: PersonalText? = nil, subtitle: PersonalText? = nil
    ) {
        self.transactionID = transactionID
        self.details = details
        self.splitWith = splitWith
        self.originalAmount = originalAmount
        self.payee = payee
        self.subtitle = subtitle
    }
}
