/// A person left a group (S7); only with a zero balance in every currency (Docs/Editing.md).
///
/// Tag 512, schema version 1 (see ``EventTag/groupMemberRemoved`` and `Docs/Events.md`).
@WireFields
public struct GroupMemberRemoved: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID
    /// The person removed.
    public let personID: PersonID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID, personID: PersonID) {
        self.groupID = groupID
        self.personID = personID
    }
}
