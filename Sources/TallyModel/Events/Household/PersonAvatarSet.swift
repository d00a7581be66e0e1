/// A member's or contact's avatar was set, all at once (Swiff 1.1.2 Person): an absent field
/// is removed, no field removes the avatar. The photo is a reference to an image the host keeps
/// under its SHA-256 digest, like an attachment (T6); forgetting the person (P3) drops it.
///
/// Tag 109, schema version 1 (see ``EventTag/personAvatarSet`` and `Docs/Events.md`).
@WireFields
public struct PersonAvatarSet: Hashable, Sendable {
    /// The member or contact.
    public let personID: PersonID
    /// The avatar after the change.
    public let avatar: PersonAvatar

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, avatar: PersonAvatar) {
        self.personID = personID
        self.avatar = avatar
    }
}

/// How a people screen draws a person (Swiff 1.1.2): an emoji, a colour, or a photo. Without
/// one the app draws the initials of the name.
@WireFields
public struct PersonAvatar: Hashable, Sendable {
    /// An emoji the app draws.
    public var emoji: String?
    /// A colour the app draws (as categories keep theirs, e.g. `#4CAF50`).
    public var color: String?
    /// The SHA-256 digest of a photo the host keeps.
    public var photo: ContentHash?

    /// Creates an avatar; every field is optional.
    public init(emoji: String? = nil, color: String? = nil, photo: ContentHash? = nil) {
        self.emoji = emoji
        self.color = color
        self.photo = photo
    }

    /// Whether no field is set (the avatar is removed).
    public var isEmpty: Bool { emoji == nil && color == nil && photo == nil }
}
