import TallyModel
import TallyProjections

/// The bonus pool (Flow US-066, B7): marking an income as a bonus, allocating it, and the
/// roll-in of what is left after 7 days.
extension CommandExecutor {
    /// The `BonusRolledIn` events due before `command`: one for every bonus whose 7 days ended
    /// before the UTC date of the command's `recordedAt` with something unallocated (like a
    /// period close, B6: the host's clock never enters a fold).
    func bonusRollIns(before command: Command) throws(LedgerError) -> [EventPayload] {
        guard state.household != nil else { return [] }
        let today = try recordedDate(command)
        return state.readModels.budgets.bonusesDue(before: today).map { .bonusRolledIn($0) }
    }

    /// `markBonus`: a live income in the base currency; a mark comes off only from a bonus
    /// with no allocation, and a bonus that rolled in stays income.
    func bonusMark(_ id: TransactionID, isBonus: Bool) throws(LedgerError) -> BonusMarked {
        let record = try liveTransaction(id)
        guard record.details.kind == .income else {
            throw .violation(.notAnIncome, "only an income can be a bonus; transaction \(id) is an expense")
        }
        try requireBaseCurrency(record.details.amount, "bonus")
        let entry = state.readModels.budgets.bonusPoolEntry(id)
        if let rolledIn = entry?.rolledIn {
            throw .violation(.bonusRolledIn, "bonus \(id) rolled into regular income (\(rolledIn.formatted())) after its 7 days ended on \(entry.map { "\($0.deadline)" } ?? "?"); it stays income")
        }
        if !isBonus {
            guard let entry else { throw .violation(.notABonus, "transaction \(id) is not marked as a bonus; there is no mark to take off") }
            guard entry.allocations.isEmpty else {
                throw .violation(.bonusOverAllocated, "bonus \(id) has \(entry.allocated.formatted()) allocated; allocations stay, so the mark cannot come off")
            }
        }
        return BonusMarked(transactionID: id, isBonus: isBonus)
    }

    /// `allocateBonus`: a category or a goal (one of them), a positive amount in the base
    /// currency up to what the bonus has left, within its 7 days.
    func bonusAllocation(
        _ id: TransactionID, categoryID: CategoryID?, goalID: GoalID?, amount: Money, command: Command
    ) throws(LedgerError) -> BonusAllocated {
        guard (categoryID == nil) != (goalID == nil) else {
            throw .violation(.invalidValue, "a bonus allocation names one target: categoryID (a budget) or goalID (a goal), not \(categoryID == nil ? "neither" : "both")")
        }
        _ = try liveTransaction(id)
        guard let entry = state.readModels.budgets.bonusPoolEntry(id) else {
            throw .violation(.notABonus, "transaction \(id) is not in the bonus pool; send markBonus first")
        }
        let today = try recordedDate(command)
        guard entry.rolledIn == nil, today <= entry.deadline else {
            throw .violation(.bonusRolledIn, "bonus \(id) could be allocated until \(entry.deadline); what was left became regular income")
        }
        try requirePositive(amount, "bonus allocation")
        try requireBaseCurrency(amount, "bonus allocation")
        guard amount.minorUnits <= entry.available.minorUnits else {
            throw .violation(.bonusOverAllocated, "bonus \(id) has \(entry.available.formatted()) left to allocate, not \(amount.formatted())")
        }
        if let categoryID {
            let category = try usableCategory(categoryID)
            guard category.group == .expense else {
                throw .violation(.categoryGroupMismatch, "a bonus adds to the budget of an expense category; \(category.name) is an income category")
            }
        }
        if let goalID { _ = try liveGoal(goalID) }
        return BonusAllocated(transactionID: id, categoryID: categoryID, goalID: goalID, amount: amount)
    }
}
