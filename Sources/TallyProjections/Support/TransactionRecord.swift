import HashTreeCollections
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
    /// When the event that recorded it was recorded (its journal record's `recordedAt`, G3).
    package let recordedAt: Timestamp
    /// When it was last edited (`TransactionEdited`, T2, an undone edit included); `nil` while
    /// never edited (US-018).
    package internal(set) var lastEditedAt: Timestamp?
    /// When it was deleted (`TransactionDeleted`, T3) while it is deleted; `nil` while live
    /// (a restore clears it): the start of its 30 days in "recently deleted" (US-020).
    package internal(set) var deletedAt: Timestamp?
    /// The amount as charged in another currency than the wallet's (T7); `nil` for one in the
    /// wallet's currency.
    package internal(set) var originalAmount: Money?
    /// Who was paid or paid: the title a list shows (Swiff 1.1.2, US-072), personal text (P1).
    package internal(set) var payee: PersonalText?
    /// The line under the title (Swiff 1.1.2), personal text (P1).
    package internal(set) var subtitle: PersonalText?

    /// Whether it is soft-deleted (T3).
    package var isDeleted: Bool { !isLive }

    /// Whether `other` holds the same transaction as entered: whether it is live and every field
    /// a command sets (details, the split as entered, the original amount, payee, subtitle), not
    /// when or by which event it was recorded, edited or deleted (a backup merge, Swiff 2.4.3).
    /// A field added to the record belongs here too.
    package func hasSameContent(as other: TransactionRecord) -> Bool {
        isLive == other.isLive && details == other.details && splitWith == other.splitWith
            && originalAmount == other.originalAmount && payee == other.payee && subtitle == other.subtitle
    }

    init(
        details: TransactionDetails, sequenceNumber: UInt64, splitWith: GroupSplit?, recordedAt: Timestamp, originalAmount: Money?,
        payee: PersonalText?, subtitle: PersonalText?
    ) {
        self.init(
            details: details, isLive: true, sequenceNumber: sequenceNumber, splitWith: splitWith, lastChanged: sequenceNumber,
            recordedAt: recordedAt, lastEditedAt: nil, deletedAt: nil, originalAmount: originalAmount, payee: payee, subtitle: subtitle)
    }

    /// A record with every field given (the store reads one back from its rows).
    package init(
        details: TransactionDetails, isLive: Bool, sequenceNumber: UInt64, splitWith: GroupSplit?, lastChanged: UInt64,
        recordedAt: Timestamp, lastEditedAt: Timestamp?, deletedAt: Timestamp?, originalAmount: Money?,
        payee: PersonalText?, subtitle: PersonalText?
    ) {
        self.details = details
        self.isLive = isLive
        self.sequenceNumber = sequenceNumber
        self.splitWith = splitWith
        self.lastChanged = lastChanged
        self.recordedAt = recordedAt
        self.lastEditedAt = lastEditedAt
        self.deletedAt = deletedAt
        self.originalAmount = originalAmount
        self.payee = payee
        self.subtitle = subtitle
    }
}

extension ArchivedMap where Key == TransactionID, Value == TransactionRecord {
    /// The records that match `belongs` among those `filter` selects: one index range of the
    /// store's `transactions` table as of the checkpoint the book was settled against, with the
    /// records changed since (in memory) over it: O(the range), not O(the book). Without a
    /// store every record is in memory and each is tested.
    package func records(matching filter: BookFilter, where belongs: (TransactionRecord) -> Bool) -> TreeDictionary<TransactionID, TransactionRecord> {
        guard let reader else { return resident.filter { belongs($0.value) } }
        var found: TreeDictionary<TransactionID, TransactionRecord> = [:]
        for (keyBytes, valueBytes) in reader.bookEntries(matching: filter) {
            guard let key = TransactionID.decoded(keyBytes, reportingTo: reader),
                  let value = TransactionRecord.decoded(valueBytes, reportingTo: reader), belongs(value) else { continue }
            found[key] = value
        }
        for (key, value) in resident { found[key] = belongs(value) ? value : nil }
        return found
    }

    /// The transactions filed under `category`, deleted ones included, by id (C3).
    package func ids(inCategory category: CategoryID) -> [TransactionID] {
        records(matching: .category(category)) { $0.details.categoryID == category }.keys.sorted()
    }
}
