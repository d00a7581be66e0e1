/// A deleted group was restored (S7; the undo of `deleteGroup`, T5): listed again with its
/// members, expenses and settlements as they were when it was deleted (every balance zero).
///
/// Tag 516, schema version 1 (see ``EventTag/groupRestored`` and `Docs/Events.md`).
@WireFields
public struct GroupRestored: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID) {
        self.groupID = groupID
    }
}
