/// The amount saved toward a goal tracked by hand, as of a date (R2 manual mode).
///
/// Tag 622, schema version 1 (see ``EventTag/goalAmountSet`` and `Docs/Events.md`). A goal's
/// amounts form a timeline with one entry per date (a later event for the same date replaces
/// it; a `nil` amount removes it, which is what undo appends when the date had none); the
/// progress on a day is the latest entry on or before it.
@WireFields
public struct GoalAmountSet: Hashable, Sendable {
    /// The goal.
    public let goalID: GoalID
    /// The day the amount was saved by.
    public let date: LocalDate
    /// The amount saved, in the target's currency; `nil` removes the date's entry.
    public let amount: Money?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(goalID: GoalID, date: LocalDate, amount: Money?) {
        self.goalID = goalID
        self.date = date
        self.amount = amount
    }
}

extension [GoalAmountSet] {
    /// Applies `set` to a goal's amounts (one per date, by date): replaces or removes the
    /// date's entry. The one rule both the engine and the goal read model fold with.
    public mutating func set(_ set: GoalAmountSet) {
        removeAll { $0.date == set.date }
        guard set.amount != nil else { return }
        insert(set, at: firstIndex { $0.date > set.date } ?? endIndex)
    }
}
