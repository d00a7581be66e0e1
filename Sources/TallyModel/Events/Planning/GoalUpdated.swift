/// A savings goal was edited (R2, Drishti E8-S2): the whole definition after the edit.
///
/// Tag 621, schema version 1 (see ``EventTag/goalUpdated`` and `Docs/Events.md`). Milestones
/// already reached stay reached; a new target counts from this event on.
@WireFields
public struct GoalUpdated: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID
    /// What it is after the edit.
    public let goal: GoalDefinition

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(goalID: GoalID, goal: GoalDefinition) {
        self.goalID = goalID
        self.goal = goal
    }
}
