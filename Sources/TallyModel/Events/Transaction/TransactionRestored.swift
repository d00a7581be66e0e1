/// A soft-deleted transaction was brought back (T3).
///
/// Tag 403, schema version 1 (see ``EventTag/transactionRestored`` and `Docs/Events.md`).
@WireFields
public struct TransactionRestored: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID) {
        self.transactionID = transactionID
    }
}
