/// A deleted savings goal was restored, with its amounts and milestones (the undo of
/// ``GoalDeleted``, T5).
///
/// Tag 624, schema version 1 (see ``EventTag/goalRestored`` and `Docs/Events.md`).
@WireFields
public struct GoalRestored: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(goalID: GoalID) { self.goalID = goalID }
}
