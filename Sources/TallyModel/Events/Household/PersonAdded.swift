/// A contact (someone you split with in groups, not a member) was added (H3).
///
/// Tag 105, schema version 1 (see ``EventTag/personAdded`` and `Docs/Events.md`).
public struct PersonAdded: Hashable, Sendable {
    /// The contact.
    public let personID: PersonID
    /// The contact's display name.
    public let name: String

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, name: String) {
        self.personID = personID
        self.name = name
    }
}
