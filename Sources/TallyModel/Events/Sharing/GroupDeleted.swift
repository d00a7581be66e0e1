/// A settled group was deleted (S7): every member balance was zero; it is listed nowhere and takes nothing more.
///
/// Tag 515, schema version 1 (see ``EventTag/groupDeleted`` and `Docs/Events.md`).
@WireFields
public struct GroupDeleted: Hashable, Sendable {
    /// The group.
    public let groupID: GroupID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(groupID: GroupID) {
        self.groupID = groupID
    }
}
