/// A savings goal was deleted (R2, Drishti E8-S2); undo restores it (``GoalRestored``).
///
/// Tag 623, schema version 1 (see ``EventTag/goalDeleted`` and `Docs/Events.md`).
@WireFields
public struct GoalDeleted: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(goalID: GoalID) { self.goalID = goalID }
}
