import TallyModel

/// A transaction (T1-T3), the one record of it in memory: its current fields (after edits, T2),
/// whether it is live (not soft-deleted, T3), the sequence number that recorded it, and the
/// split with people as entered, which validation needs besides.
/// One book of them (``Projections``) serves the read models and the engine's validation state
/// alike.
@StateFields
package struct TransactionRecord: Hashable, Sendable {
    /// The current fields.
    package internal(set) var details: TransactionDetails
    /// `false` after `TransactionDeleted`, `true` again after `TransactionRestored`.
    package internal(set) var isLive: Bool
    /// The sequence number of the event that first recorded it (orders "oldest first").
    package let sequenceNumber: UInt64
    /// Its split with chosen people as entered, if any (18.4): what an undone edit puts back.
    package internal(set) var splitWith: GroupSplit?

    /// Whether it is soft-deleted (T3).
    package var isDeleted: Bool { !isLive }

    init(details: TransactionDetails, sequenceNumber: UInt64, splitWith: GroupSplit?) {
        self.details = details
        self.isLive = true
        self.sequenceNumber = sequenceNumber
        self.splitWith = splitWith
    }
}
