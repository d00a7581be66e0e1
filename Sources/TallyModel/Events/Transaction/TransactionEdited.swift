/// A transaction was edited; carries the full new field values (T2).
///
/// Tag 401, schema version 5 (see ``EventTag/transactionEdited`` and `Docs/Events.md`).
@WireFields
public struct TransactionEdited: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID
    /// All fields after the edit, including split on/off and re-resolved shares (T2).
    public let details: TransactionDetails
    /// The split with chosen people as entered after the edit, like
    /// ``TransactionRecorded/splitWith``; `nil` when the edit leaves none. Added by version 3.
    @WireSince(3) public let splitWith: GroupSplit?
    /// The amount as charged in another currency after the edit, like
    /// ``TransactionRecorded/originalAmount`` (T7); `nil` when the edit leaves none. Added by version 4.
    @WireSince(4) public let originalAmount: Money?
    /// The payee after the edit, like ``TransactionRecorded/payee``; `nil` when the edit leaves
    /// none. Added by version 5.
    @WireSince(5) public let payee: PersonalText?
    /// The subtitle after the edit, like ``TransactionRecorded/subtitle``; `nil` when the edit
    /// leaves none. Added by version 5.
    @WireSince(5) public let subtitle: PersonalText?

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
