/// A transaction was edited; carries the full new field values (T2).
///
/// Tag 401, schema version 2 (see ``EventTag/transactionEdited`` and `Docs/Events.md`).
@WireFields
public struct TransactionEdited: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID
    /// All fields after the edit, including split on/off and re-resolved shares (T2).
    public let details: TransactionDetails

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID, details: TransactionDetails) {
        self.transactionID = transactionID
        self.details = details
    }
}
