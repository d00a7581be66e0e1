import TallyModel
import TallyProjections

/// Goals (R2), scenarios (R3) and alert settings (R6): commands that record what the user plans;
/// progress, milestones, series and alerts are derived from them and the ledger
/// (Docs/Planning.md).
extension CommandExecutor {
    func validatePlanning(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .createGoal(let id, let goal):
            guard state.goals[id] == nil else { throw .violation(.duplicateID, "a goal with id \(id) exists already") }
            guard state.readModels.goals.liveGoalCount < LedgerLimits.goalsMax else {
                throw .violation(.inputTooLarge, "the household has \(LedgerLimits.goalsMax) goals (LedgerLimits.goalsMax); delete one first")
            }
            guard state.goals.count < LedgerLimits.goalsCreatedMax else {
                throw .violation(.inputTooLarge, "the household created \(LedgerLimits.goalsCreatedMax) goals (LedgerLimits.goalsCreatedMax, deleted ones included); edit an existing goal instead")
            }
            try requireGoal(goal)
            return [.goalCreated(GoalCreated(goalID: id, goal: goal))]
        case .updateGoal(let id, let goal):
            let record = try liveGoal(id)
            try requireGoal(goal)
            if goal.isLinked, !record.goal.isLinked, !record.amounts.isEmpty {
                throw .violation(.goalInvalid, "goal \(record.goal.name) has amounts set by hand; remove them (setGoalAmount without an amount) before linking wallets")
            }
            if let amount = record.amounts.first?.amount, amount.currency != goal.target.currency {
                throw .violation(.goalInvalid, "goal \(record.goal.name) has amounts set by hand in \(amount.currency); keep the target in \(amount.currency), or remove the amounts first")
            }
            return [.goalUpdated(GoalUpdated(goalID: id, goal: goal))]
        case .setGoalAmount(let id, let date, let amount):
            let record = try liveGoal(id)
            guard !record.goal.isLinked else {
                throw .violation(.goalInvalid, "goal \(record.goal.name) follows its linked wallets; record their balances instead, or unlink them to track it by hand")
            }
            if let amount {
                guard amount.currency == record.goal.target.currency else {
                    throw .violation(.goalInvalid, "the amount is in \(amount.currency) but goal \(record.goal.name) counts in \(record.goal.target.currency)")
                }
                guard amount.minorUnits >= 0 else { throw .violation(.goalInvalid, "the amount saved cannot be negative, got \(amount.formatted())") }
            } else if record.amount(on: date) == nil {
                throw .violation(.goalInvalid, "goal \(record.goal.name) has no amount on \(date) to remove")
            }
            return [.goalAmountSet(GoalAmountSet(goalID: id, date: date, amount: amount))]
        case .deleteGoal(let id):
            _ = try liveGoal(id)
            return [.goalDeleted(GoalDeleted(goalID: id))]
        case .saveScenario(let scenario):
            try requireName(scenario.name, of: "scenario")
            if state.planning.scenarios[scenario.scenarioID] == nil, state.planning.scenarios.count >= LedgerLimits.scenariosMax {
                throw .violation(.inputTooLarge, "the household has \(LedgerLimits.scenariosMax) scenarios (LedgerLimits.scenariosMax); delete one first")
            }
            let base = state.household?.baseCurrency
            let amounts = [("monthlyIncomeDelta", scenario.monthlyIncomeDelta), ("monthlyExpenseDelta", scenario.monthlyExpenseDelta)]
                + scenario.lumpSums.enumerated().map { ("lumpSums[\($0.offset)]", $0.element.amount) }
            for (field, amount) in amounts where amount.currency != base {
                throw .violation(.scenarioInvalid, "\(field) is in \(amount.currency); a scenario adds to the baseline in the base currency \(base.map { "\($0)" } ?? "")")
            }
            let range = ScenarioSaved.savingsRateDeltaBasisPointsRange
            if let delta = scenario.savingsRateDeltaBasisPoints, !range.contains(delta) {
                throw .violation(.scenarioInvalid, "savingsRateDeltaBasisPoints \(delta) is outside \(range.lowerBound)...\(range.upperBound) (E9-S6: from -80% to +200% of savings rate)")
            }
            return [.scenarioSaved(scenario)]
        case .deleteScenario(let id):
            guard state.planning.scenarios[id] != nil else { throw .violation(.unknownScenario, "no saved scenario has id \(id)") }
            return [.scenarioDeleted(ScenarioDeleted(scenarioID: id))]
        case .activateScenario(let id):
            if let id, state.planning.scenarios[id] == nil { throw .violation(.unknownScenario, "no saved scenario has id \(id); save it first") }
            return [.scenarioActivated(ScenarioActivated(scenarioID: id))]
        case .setAlertSettings(let settings):
            try requireAlertSettings(settings)
            return [.alertSettingsSet(settings)]
        case .setBalanceAlert(let id, let below, let above):
            // G7: another member's own wallet is unknown to the actor.
            guard let wallet = state.wallets[id], Viewer.member(command.actor).sees(walletOwnedBy: wallet.owner) else {
                throw .violation(.unknownWallet, "no wallet you see has id \(id)")
            }
            try requireOpen(wallet, for: "take a balance alert")
            for (name, threshold) in [("below", below), ("above", above)] {
                guard let threshold else { continue }
                guard threshold.currency == wallet.currency else {
                    throw .violation(.alertSettingsInvalid, "\(name) \(threshold.formatted()) must be in \(wallet.name)'s currency \(wallet.currency.code)")
                }
                try requireWithinLimit(threshold, "balance alert \(name)")
            }
            if let below, let above, below.minorUnits >= above.minorUnits {
                throw .violation(.alertSettingsInvalid, "below \(below.formatted()) must be less than above \(above.formatted()), or the alert is always in force")
            }
            return [.walletBalanceAlertSet(WalletBalanceAlertSet(walletID: id, below: below, above: above))]
        default:
            return []
        }
    }

    /// The goal with `id` unless it is unknown or deleted.
    func liveGoal(_ id: GoalID) throws(LedgerError) -> GoalRecord {
        guard let record = state.goals[id] else { throw .violation(.unknownGoal, "no goal has id \(id)") }
        guard !record.isDeleted else { throw .violation(.unknownGoal, "goal \(record.goal.name) is deleted; undo its deletion to bring it back") }
        return record
    }

    private func requireGoal(_ goal: GoalDefinition) throws(LedgerError) {
        try requireName(goal.name, of: "goal")
        guard goal.target.minorUnits > 0 else { throw .violation(.goalInvalid, "the target must be more than zero, got \(goal.target.formatted())") }
        guard Set(goal.walletIDs).count == goal.walletIDs.count else {
            throw .violation(.goalInvalid, "a wallet is linked twice; list each wallet once")
        }
        for walletID in goal.walletIDs {
            _ = try openWallet(walletID, for: "be followed by a goal (R2)")
        }
    }

    private func requireAlertSettings(_ settings: AlertSettingsSet) throws(LedgerError) {
        if let spike = settings.spikePercent, !(101...10_000).contains(spike) {
            throw .violation(.alertSettingsInvalid, "spikePercent is the percent of the trailing monthly average that is a spike, 101...10000; got \(spike)")
        }
        let thresholds = settings.budgetThresholds
        guard thresholds.allSatisfy({ (1...1_000).contains($0) }), zip(thresholds, thresholds.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .violation(.alertSettingsInvalid, "budget thresholds are percentages from 1 to 1000, ascending, each once; got \(thresholds)")
        }
        guard (0...366).contains(settings.upcomingDays) else {
            throw .violation(.alertSettingsInvalid, "upcomingDays is 0 (off) to 366, got \(settings.upcomingDays)")
        }
        guard (0...3_660).contains(settings.staleBalanceDays) else {
            throw .violation(.alertSettingsInvalid, "staleBalanceDays is 0 (off) to 3660, got \(settings.staleBalanceDays)")
        }
        if let large = settings.largeTransaction, large.minorUnits <= 0 {
            throw .violation(.alertSettingsInvalid, "largeTransaction must be more than zero, got \(large.formatted())")
        }
        guard (0...366).contains(settings.priceIncreaseWindow) else {
            throw .violation(.alertSettingsInvalid, "priceIncreaseDays is 0 (off) to 366, got \(settings.priceIncreaseWindow)")
        }
        if let threshold = settings.settleUpThreshold, threshold.minorUnits <= 0 {
            throw .violation(.alertSettingsInvalid, "settleUpThreshold must be more than zero, got \(threshold.formatted())")
        }
    }
}
