/// A person was forgotten: their personal key was destroyed, so every name and note of theirs
/// now reads as redacted (P3). Amounts, shares and balances stay as they were (P4).
///
/// Tag 107, schema version 1 (see ``EventTag/personForgotten`` and `Docs/Events.md`).
@WireFields
public struct PersonForgotten: Hashable, Sendable {
    /// The person whose personal data was shredded.
    public let personID: PersonID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID) {
        self.personID = personID
    }
}
