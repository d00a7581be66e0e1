import TallyModel

/// The key of one attachment in the book (T6): the item, then the digest. The archive orders
/// keys by their bytes, so an item's attachments are one key range (``AttachmentKey/range(of:)``).
package struct AttachmentKey: Hashable, Comparable, Sendable {
    /// The transaction or group expense.
    package let item: AttachedItem
    /// The digest of the file.
    package let contentHash: ContentHash

    package init(item: AttachedItem, contentHash: ContentHash) {
        self.item = item
        self.contentHash = contentHash
    }

    package static func < (lhs: AttachmentKey, rhs: AttachmentKey) -> Bool { lhs.archiveBytes.lexicographicallyPrecedes(rhs.archiveBytes) }

    /// The first and last key bytes of `item`'s attachments.
    package static func range(of item: AttachedItem) -> (lower: [UInt8], upper: [UInt8]) {
        var prefix = BinaryWriter()
        item.write(to: &prefix)
        return (prefix.bytes + [UInt8](repeating: 0x00, count: ContentHash.byteCount),
                prefix.bytes + [UInt8](repeating: 0xFF, count: ContentHash.byteCount))
    }
}

extension AttachmentKey: ArchiveCodable, StateCodable {
    package func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    package init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
    func encode(to writer: inout BinaryWriter) {
        item.write(to: &writer)
        contentHash.write(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(item: try reader.readWire(), contentHash: try reader.readWire())
    }
}

/// An attachment (T6), the one record of it: the file's fields as attached, when (the journal's
/// `recordedAt`), and whether it is still on its item. Who attached it is the name's owner.
@StateFields
package struct AttachmentRecord: Hashable, Sendable {
    /// The file's name, personal text of the person who attached it (P1).
    package let name: PersonalText
    /// Its size in bytes.
    package let byteCount: Int64
    /// Its media type.
    package let mediaType: String
    /// When it was attached: the event's `recordedAt`, in milliseconds since 1970 (UTC).
    package let addedAtMilliseconds: Int64
    /// `false` after `AttachmentRemoved`.
    package internal(set) var isLive: Bool

    /// The person who attached it: the name's owner (an undone removal attaches it again in
    /// their name).
    package var addedBy: PersonID { name.owner }

    init(_ added: AttachmentAdded, addedAt: Timestamp) {
        self.name = added.name
        self.byteCount = added.byteCount
        self.mediaType = added.mediaType
        self.addedAtMilliseconds = addedAt.millisecondsSinceEpoch
        self.isLive = true
    }

    /// The event that attaches this file to `item` again (the undo of its removal, T5).
    package func added(to item: AttachedItem, contentHash: ContentHash) -> AttachmentAdded {
        AttachmentAdded(item: item, contentHash: contentHash, name: name, byteCount: byteCount, mediaType: mediaType)
    }
}

extension AttachmentRecord: ArchiveCodable, StateCodable {
    package func writeArchive(to writer: inout BinaryWriter) { encode(to: &writer) }
    package init(archive reader: inout BinaryReader) throws(EventCodecError) { self = try Self.decodeArchived(from: &reader) }
}

extension ArchivedMap where Key == AttachmentKey, Value == AttachmentRecord {
    /// Every attachment ever on `item`, removed ones included, by digest: one key range of the
    /// archive (O(the item's attachments)).
    package func attachments(of item: AttachedItem) -> [(contentHash: ContentHash, record: AttachmentRecord)] {
        let (lower, upper) = AttachmentKey.range(of: item)
        return entries(from: lower, through: upper, where: { $0.item == item })
            .map { (contentHash: $0.key.contentHash, record: $0.value) }
            .sorted { $0.contentHash < $1.contentHash }
    }

    /// The one fold of the book: applies an attachment event.
    mutating func apply(_ event: Event) {
        switch event.payload {
        case .attachmentAdded(let added):
            self[AttachmentKey(item: added.item, contentHash: added.contentHash)] =
                AttachmentRecord(added, addedAt: event.recordedAt)
        case .attachmentRemoved(let removed):
            update(AttachmentKey(item: removed.item, contentHash: removed.contentHash)) { $0.isLive = false }
        default:
            break
        }
    }
}

/// Where a transaction or group expense stands for attachments (T6): what the rules that write
/// and read them check.
package enum AttachedItemStanding: Sendable, Equatable {
    /// No such item, or one the viewer does not see (G7: the two read alike).
    case unknown
    /// Deleted (T3, S7) or in a deleted group: its attachments are not served until it is back.
    case deleted
    /// Live and seen by the viewer.
    case live
}

extension Projections {
    /// Where `item` stands for `viewer` (T6, G7): the one rule both the commands that attach
    /// files and the reads that serve them go by. A transaction is seen as the viewer sees it
    /// (`Viewer.sees(_:)`); a group expense by the group's members.
    package func standing(of item: AttachedItem, seenBy viewer: Viewer) -> AttachedItemStanding {
        switch item {
        case .transaction(let id):
            guard let record = transactions[id], viewer.sees(record.details) else { return .unknown }
            return record.isLive ? .live : .deleted
        case .groupExpense(let id):
            guard let record = debts.groupExpenses[id], let group = debts.groups[record.expense.groupID],
                  viewer.sees(groupWithMembers: group.members) else { return .unknown }
            return record.isLive && !group.isDeleted ? .live : .deleted
        }
    }
}
