/// A savings goal was created (R2).
///
/// Tag 620, schema version 1 (see ``EventTag/goalCreated`` and `Docs/Events.md`).
@WireFields
public struct GoalCreated: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID
    /// What it is.
    public let goal: GoalDefinition

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(goalID: GoalID, goal: GoalDefinition) {
        self.goalID = goalID
        self.goal = goal
    }
}
