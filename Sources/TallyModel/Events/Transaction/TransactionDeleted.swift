/// A transaction was soft-deleted; it counts nowhere (T3).
///
/// Tag 402, schema version 1 (see ``EventTag/transactionDeleted`` and `Docs/Events.md`).
@WireFields
public struct TransactionDeleted: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID) {
        self.transactionID = transactionID
    }
}
