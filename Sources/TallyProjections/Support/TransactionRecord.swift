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
    /// The sequence number of the event that last changed it (recorded, edited, deleted,
    /// restored, moved to another category): the store's `transactions` row carries it, so a
    /// state restored from an older checkpoint knows which rows changed after it (Docs/Engine.md
    /// "Checkpoints in the store").
    package internal(set) var lastChanged: UInt64

    /// Whether it is soft-deleted (T3).
    package var isDeleted: Bool { !isLive }

    init(details: TransactionDetails, sequenceNumber: UInt64, splitWith: GroupSplit?) {
        self.init(details: details, isLive: true, sequenceNumber: sequenceNumber, splitWith: splitWith, lastChanged: sequenceNumber)
    }

    /// A record with every field given (the store reads one back from its rows).
    package init(details: TransactionDetails, isLive: Bool, sequenceNumber: UInt64, splitWith: GroupSplit?, lastChanged: UInt64) {
        self.details = details
        self.isLive = isLive
        self.sequenceNumber = sequenceNumber
        self.splitWith = splitWith
        self.lastChanged = lastChanged
    }
}
