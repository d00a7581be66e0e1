/// A person joined the household as a member (H3).
///
/// Tag 102, schema version 2 (see ``EventTag/memberAdded`` and `Docs/Events.md`).
@WireFields
public struct MemberAdded: Hashable, Sendable {
    /// The new member.
    public let personID: PersonID
    /// The member's display name, personal text of the member (P1).
    public let name: PersonalText
    /// The role; `admin` only for the creator via HouseholdCreated, so normally `member`.
    public let role: MemberRole

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, name: PersonalText, role: MemberRole) {
        self.personID = personID
        self.name = name
        self.role = role
    }
}
