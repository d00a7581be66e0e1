/// A transfer was deleted (soft, like T3); it counts nowhere (W3).
///
/// Tag 208, schema version 1 (see ``EventTag/transferDeleted`` and `Docs/Events.md`).
@WireFields
public struct TransferDeleted: Hashable, Sendable {
    /// The transfer.
    public let transferID: TransferID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(transferID: TransferID) {
        self.transferID = transferID
    }
}
