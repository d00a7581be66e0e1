/// A piece of personal data (a person's name, a note someone wrote) together with the person it
/// belongs to (P1 in `Docs/Security.md`).
///
/// In the journal it is sealed with its owner's own key, so destroying that key when the person
/// is forgotten (P3) makes every copy of it unreadable. Once the key is gone the text decodes as
/// redacted: ``text`` is `nil` and ``description`` shows ``redactionMarker``. Amounts, dates and
/// ids are never personal text, so balances do not change when a person is forgotten (P4).
///
/// A text read where its owner's key is not held (a sync server relaying a household's history,
/// a ledger whose key file lost that key) but whose owner was not forgotten is *sealed*
/// (``isSealed``): ``text`` is `nil`, ``description`` shows ``sealedMarker``, and it keeps the
/// sealed bytes, which every encoder writes back unchanged, so relaying a text never destroys it.
public struct PersonalText: Hashable, Sendable, CustomStringConvertible {
    /// What a redacted text shows in reports, exports and the CLI.
    public static let redactionMarker = "[redacted]"
    /// What a sealed text (not readable here, not forgotten) shows.
    public static let sealedMarker = "[sealed]"

    /// The person whose key seals the text: for a name, the person named; for free text, the
    /// person who wrote it (the event's actor).
    public let owner: PersonID
    /// The text, or `nil` if it is redacted (its owner was forgotten) or sealed (its owner's key
    /// is not held here).
    public let text: String?
    /// The sealed form's bytes (nonce, ciphertext, tag) of a text read without its owner's key;
    /// `nil` for a readable or redacted text.
    package let sealedBytes: [UInt8]?

    /// A readable text owned by `owner`.
    public init(_ text: String, owner: PersonID) {
        self.owner = owner
        self.text = text
        self.sealedBytes = nil
    }

    private init(owner: PersonID, sealedBytes: [UInt8]?) {
        self.owner = owner
        self.text = nil
        self.sealedBytes = sealedBytes
    }

    /// The text of `owner` after their key was destroyed.
    public static func redacted(owner: PersonID) -> PersonalText { PersonalText(owner: owner, sealedBytes: nil) }

    /// The text of `owner` sealed as `bytes`, read where `owner`'s key is not held.
    package static func sealed(_ bytes: [UInt8], owner: PersonID) -> PersonalText { PersonalText(owner: owner, sealedBytes: bytes) }

    /// Whether the text is gone for good (P3).
    public var isRedacted: Bool { text == nil && sealedBytes == nil }

    /// Whether the text exists but cannot be read here: its owner's key is not held (see the
    /// type's discussion). It reads as ``sealedMarker`` and is never compared by its content.
    public var isSealed: Bool { sealedBytes != nil }

    /// The text, ``sealedMarker`` or ``redactionMarker``.
    public var description: String { text ?? (isSealed ? Self.sealedMarker : Self.redactionMarker) }

    /// The personal text a command enters as `text` in a field that held `previous` (P1, the
    /// one rule of every edit): `previous` itself, with its author, when `text` is what it shows
    /// (its text, or its marker for a redacted or sealed one, so a form sent back unchanged
    /// keeps it); else a new text of `author`.
    package static func entered(_ text: String, by author: PersonID, keeping previous: PersonalText?) -> PersonalText {
        if let previous, previous.description == text { return previous }
        return PersonalText(text, owner: author)
    }
}
