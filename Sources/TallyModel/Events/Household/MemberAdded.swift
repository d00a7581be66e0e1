/// A person joined the household as a member (H3).
///
/// Tag 102, schema version 1 (see ``EventTag/memberAdded`` and `Docs/Events.md`).
public struct MemberAdded: Hashable, Sendable {
    /// The new member.
    public let personID: PersonID
    /// The member's display name.
    public let name: String
    /// The role; `admin` only for the creator via HouseholdCreated, so normally `member`.
    public let role: MemberRole

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID, name: String, role: MemberRole) {
        self.personID = personID
        self.name = name
        self.role = role
    }
}
