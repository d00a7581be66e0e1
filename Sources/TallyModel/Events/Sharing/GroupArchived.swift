/// A group was archived (S7): it takes no new expenses; its history, balances and settlements stay.
///
/// Tag 513, schema version 1 (see ``EventTag/groupArchived`` and `Docs/Events.md`).
@WireFields
public struct GroupArchived: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID) {
        self.groupID = groupID
    }
}
