/// An income or expense was recorded (T1).
///
/// Tag 400, schema version 3 (see ``EventTag/transactionRecorded`` and `Docs/Events.md`).
@WireFields
public struct TransactionRecorded: Hashable, Sendable {
    /// The transaction.
    public let transactionID: TransactionID
    /// Its fields, with resolved split shares (G4). Version 1 had no `tags`.
    public let details: TransactionDetails

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transactionID: TransactionID, details: TransactionDetails) {
        self.transactionID = transactionID
        self.details = details
    }
}
