/// A group's name and description were changed; carries both after the change (S7).
///
/// Tag 510, schema version 1 (see ``EventTag/groupUpdated`` and `Docs/Events.md`).
@WireFields
public struct GroupUpdated: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID
    /// Its name (household vocabulary, not personal text).
    public let name: String
    /// A description; `nil` for none.
    public let description: String?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID, name: String, description: String?) {
        self.groupID = groupID
        self.name = name
        self.description = description
    }
}
