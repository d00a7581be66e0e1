/// A contact (someone you split with in groups, not a member) was added (H3).
///
/// Tag 105, schema version 2 (see ``EventTag/personAdded`` and `Docs/Events.md`).
@WireFields
public struct PersonAdded: Hashable, Sendable {
    /// The contact.
    public let personID: PersonID
    /// The contact's display name, personal text of the contact (P1).
    public let name: PersonalText

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, name: PersonalText) {
        self.personID = personID
        self.name = name
    }
}
