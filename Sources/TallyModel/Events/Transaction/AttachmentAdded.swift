/// A file was attached to a transaction or a group expense (T6; Swiff 2.2.1 receipts): a
/// reference to bytes the host keeps under their SHA-256 digest, never the bytes. The name is
/// personal text of the person who attached it (P1), so forgetting them (P3) redacts it.
///
/// Tag 404, schema version 1 (see ``EventTag/attachmentAdded`` and `Docs/Events.md`).
@WireFields
public struct AttachmentAdded: Hashable, Sendable {
    /// The transaction or group expense the file is attached to.
    public let item: AttachedItem
    /// The digest the host keeps the bytes under; one attachment per digest and item.
    public let contentHash: ContentHash
    /// The file's name as the person gave it ("receipt.jpg"), personal text (P1).
    public let name: PersonalText
    /// The file's size in bytes.
    public let byteCount: Int64
    /// Its media type (`type/subtype`, e.g. `image/jpeg`, `application/pdf`).
    public let mediaType: String

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(item: AttachedItem, contentHash: ContentHash, name: PersonalText, byteCount: Int64, mediaType: String) {
        self.item = item
        self.contentHash = contentHash
        self.name = name
        self.byteCount = byteCount
        self.mediaType = mediaType
    }
}

/// A file was taken off a transaction or group expense (T6): the reference is gone; the bytes
/// are the host's to delete once nothing references their digest.
///
/// Tag 405, schema version 1 (see ``EventTag/attachmentRemoved`` and `Docs/Events.md`).
@WireFields
public struct AttachmentRemoved: Hashable, Sendable {
    /// The transaction or group expense.
    public let item: AttachedItem
    /// The digest of the attachment taken off.
    public let contentHash: ContentHash

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(item: AttachedItem, contentHash: ContentHash) {
        self.item = item
        self.contentHash = contentHash
    }
}

/// What an attachment is on (T6): a transaction or a group expense, the same two kinds of item a
/// settlement covers (S6), in the same forms.
public typealias AttachedItem = SettledItem
