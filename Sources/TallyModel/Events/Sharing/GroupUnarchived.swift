/// An archived group takes expenses again (S7).
///
/// Tag 514, schema version 1 (see ``EventTag/groupUnarchived`` and `Docs/Events.md`).
@WireFields
public struct GroupUnarchived: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID) {
        self.groupID = groupID
    }
}
