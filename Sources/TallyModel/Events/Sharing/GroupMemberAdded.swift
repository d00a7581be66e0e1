/// A person joined a group (S7): later expenses can include them.
///
/// Tag 511, schema version 1 (see ``EventTag/groupMemberAdded`` and `Docs/Events.md`).
@WireFields
public struct GroupMemberAdded: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID
    /// The person added.
    public let personID: PersonID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID, personID: PersonID) {
        self.groupID = groupID
        self.personID = personID
    }
}
