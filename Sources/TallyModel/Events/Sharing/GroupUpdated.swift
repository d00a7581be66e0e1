/// A group's name, description and emoji were changed; carries them all after the change (S7,
/// Swiff 1.1.2 Group).
///
/// Tag 510, schema version 2 (see ``EventTag/groupUpdated`` and `Docs/Events.md`); version 1 had
/// no emoji.
@WireFields
public struct GroupUpdated: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID
    /// Its name (household vocabulary, not personal text).
    public let name: String
    /// A description; `nil` for none.
    public let description: String?
    /// An emoji the app draws for the group; `nil` for none (and in version 1).
    @WireSince(2) public let emoji: String?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID, name: String, description: String?, emoji: String? = nil) {
        self.groupID = groupID
        self.name = name
        self.description = description
        self.emoji = emoji
    }
}
