import TallyModel
import TallyProjections

/// A file attached to a transaction or group expense (T6; Swiff 2.2.1 receipts): the reference
/// the ledger keeps. The bytes are the host's, stored under ``contentHash``.
public struct Attachment: Sendable, Hashable {
    /// The transaction or group expense it is on.
    public let item: AttachedItem
    /// The SHA-256 digest the host keeps the bytes under.
    public let contentHash: ContentHash
    /// The file's name as its author gave it (personal text, P1).
    public let name: String
    /// Its size in bytes.
    public let byteCount: Int64
    /// Its media type, lowercased (`image/jpeg`).
    public let mediaType: String
    /// Who attached it.
    public let addedBy: PersonID
    /// When it was attached (the journal's `recordedAt`).
    public let addedAt: Timestamp
}

extension Ledger {
    /// The files attached to `item` as of the last acknowledged batch, by digest (T6): none
    /// for an item `viewer` does not see (G7: a member sees the attachments of the
    /// transactions and group expenses they see, `Viewer/audit` every item's), for a deleted
    /// item (they come back with it), and none attached by a forgotten person (P3). Reads the
    /// item's range of the store's attachment book: O(its attachments), not the history.
    public func attachments(of item: AttachedItem, visibleTo viewer: Viewer) -> [Attachment] {
        queryState.attachments(of: item, visibleTo: viewer)
    }

    /// Every digest an attachment or a person's avatar photo still references, sorted (T6): what
    /// a host keeps the bytes of, and deletes the rest. An attachment on a deleted transaction or
    /// group expense still references its file (restoring the item brings it back); a removed
    /// one, or one attached by a forgotten person (P3), does not, nor a forgotten person's photo. The household-admin read: it reads the whole book
    /// (O(attachments)), for a host's clean-up, not a screen. On a synced device, the digests
    /// the confirmed history references and those its outbox does: a removal waiting in the
    /// outbox keeps the file until the server confirms it (it may refuse it).
    public func attachedContentHashes() -> [ContentHash] {
        let confirmed = confirmedQueryState.attachedContentHashes()
        guard !pendingCommands.isEmpty else { return confirmed }
        return Set(confirmed).union(queryState.attachedContentHashes()).sorted()
    }
}

extension LedgerState {
    /// ``Ledger/attachments(of:visibleTo:)`` of this state (the CLI reads a replayed one).
    package func attachments(of item: AttachedItem, visibleTo viewer: Viewer) -> [Attachment] {
        guard readModels.standing(of: item, seenBy: viewer) == .live else { return [] }
        return attachments(of: item).map { hash, record in
            Attachment(item: item, contentHash: hash, name: record.name.description, byteCount: record.byteCount,
                       mediaType: record.mediaType, addedBy: record.addedBy,
                       addedAt: Timestamp(millisecondsSinceEpoch: record.addedAtMilliseconds))
        }
    }

    /// ``Ledger/attachedContentHashes()`` of this state.
    package func attachedContentHashes() -> [ContentHash] {
        let hashes = readModels.attachments.allEntries.compactMap { key, record in
            record.isLive && people[record.addedBy]?.isForgotten != true ? key.contentHash : nil
        }
        return Set(hashes + people.values.compactMap { $0.avatar?.photo }).sorted()
    }

    /// The files attached to `item` now (T6): live, and their author not forgotten (P3: forgetting
    /// a person takes off the files they attached). By digest.
    package func attachments(of item: AttachedItem) -> [(contentHash: ContentHash, record: AttachmentRecord)] {
        readModels.attachments.attachments(of: item).filter { $0.record.isLive && people[$0.record.addedBy]?.isForgotten != true }
    }
}
