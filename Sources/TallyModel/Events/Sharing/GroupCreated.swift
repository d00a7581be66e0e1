/// A group of people sharing expenses was created (S7).
///
/// Tag 502, schema version 1 (see ``EventTag/groupCreated`` and `Docs/Events.md`).
@WireFields
public struct GroupCreated: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID
    /// Its name.
    public let name: String
    /// Its members: household members and contacts.
    public let members: [PersonID]

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID, name: String, members: [PersonID]) {
        self.groupID = groupID
        self.name = name
        self.members = members
    }
}
