import TallyModel

/// A transaction as a projection keeps it: its current fields (after edits, T2) and whether it
/// is live (not soft-deleted, T3).
@StateFields
struct TransactionRecord: Hashable, Sendable {
    /// The current fields.
    var details: TransactionDetails
    /// `false` after `TransactionDeleted`, `true` again after `TransactionRestored`.
    var isLive: Bool
    /// The sequence number of the event that first recorded it (orders "oldest first").
    let sequenceNumber: UInt64
}
