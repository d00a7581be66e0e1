/// A member's or contact's name and contact fields were changed (H3): the event carries every
/// field after the change (like `TransactionEdited`), each personal text of the person (P1), so
/// forgetting the person redacts them all (P3).
///
/// Tag 110, schema version 1 (see ``EventTag/personUpdated`` and `Docs/Events.md`).
@WireFields
public struct PersonUpdated: Hashable, Sendable {
    /// The member or contact.
    public let personID: PersonID
    /// The display name, personal text of the person (P1).
    public let name: PersonalText
    /// The e-mail address, personal text of the person (P1); `nil` for none.
    public let email: PersonalText?
    /// The phone number, personal text of the person (P1); `nil` for none.
    public let phone: PersonalText?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, name: PersonalText, email: PersonalText?, phone: PersonalText?) {
        self.personID = personID
        self.name = name
        self.email = email
        self.phone = phone
    }
}
