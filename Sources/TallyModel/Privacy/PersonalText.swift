/// A piece of personal data (a person's name, a note someone wrote) together with the person it
/// belongs to (P1 in `Docs/Security.md`).
///
/// In the journal it is sealed with its owner's own key, so destroying that key when the person
/// is forgotten (P3) makes every copy of it unreadable. Once the key is gone the text decodes as
/// redacted: ``text`` is `nil` and ``description`` shows ``redactionMarker``. Amounts, dates and
/// ids are never personal text, so balances do not change when a person is forgotten (P4).
public struct PersonalText: Hashable, Sendable, CustomStringConvertible {
    /// What a redacted text shows in reports, exports and the CLI.
    public static let redactionMarker = "[redacted]"

    /// The person whose key seals the text: for a name, the person named; for free text, the
    /// person who wrote it (the event's actor).
    public let owner: PersonID
    /// The text, or `nil` if it is redacted (its owner was forgotten).
    public let text: String?

    /// A readable text owned by `owner`.
    public init(_ text: String, owner: PersonID) {
        self.owner = owner
        self.text = text
    }

    private init(redactedFor owner: PersonID) {
        self.owner = owner
        self.text = nil
    }

    /// The text of `owner` after their key was destroyed.
    public static func redacted(owner: PersonID) -> PersonalText { PersonalText(redactedFor: owner) }

    /// Whether the text is gone for good (P3).
    public var isRedacted: Bool { text == nil }

    /// The text, or ``redactionMarker``.
    public var description: String { text ?? Self.redactionMarker }
}
