import HashTreeCollections
import TallyModel
import TallyProjections

/// The validation state of the planning features: scenarios and the active one (R3), the alert
/// settings (R6). Small (bounded by ``LedgerLimits``), kept whole. The goals (R2) are the goal
/// read model's one book, which validation reads (``LedgerState/goals``).
package struct PlanningBook: Sendable, Equatable {
    /// The saved scenarios (deleted ones are removed).
    package internal(set) var scenarios: TreeDictionary<ScenarioID, ScenarioSaved> = [:]
    /// The active scenario, if any.
    package internal(set) var activeScenario: ScenarioID?
    /// The household's alert settings, once set.
    package internal(set) var alertSettings: AlertSettingsSet?
    /// The wallets' balance alerts by wallet (R6); a removed one is gone.
    package internal(set) var balanceAlerts: TreeDictionary<WalletID, WalletBalanceAlertSet> = [:]

    /// Folds a planning event; other events are ignored.
    mutating func apply(_ payload: EventPayload) {
        switch payload {
        case .scenarioSaved(let saved): scenarios[saved.scenarioID] = saved
        case .scenarioDeleted(let deleted):
            scenarios[deleted.scenarioID] = nil
            if activeScenario == deleted.scenarioID { activeScenario = nil }
        case .scenarioActivated(let activated): activeScenario = activated.scenarioID
        case .alertSettingsSet(let settings): alertSettings = settings
        case .walletBalanceAlertSet(let set): balanceAlerts[set.walletID] = set.below == nil && set.above == nil ? nil : set
        default: break
        }
    }

    /// The keys a planning event owns and references and its compensating events (T5), against
    /// the book and `goals` before it; `nil` for other events.
    func effect(of payload: EventPayload, goals: [GoalID: GoalRecord]) -> EventEffect? {
        switch payload {
        case .goalCreated(let created):
            return EventEffect(owned: [.goal(created.goalID)], referenced: created.goal.walletIDs.map(EntityKey.wallet),
                               inverse: [.goalDeleted(GoalDeleted(goalID: created.goalID))])
        case .goalUpdated(let updated):
            let old = goals[updated.goalID]
            // The old wallets and the amounts are referenced too: undoing the edit relinks those
            // wallets and switches the source of progress back (R2).
            let wallets = Set(updated.goal.walletIDs + (old?.goal.walletIDs ?? [])).sorted().map(EntityKey.wallet)
            return EventEffect(owned: [.goal(updated.goalID)], referenced: wallets + [.goalAmounts(updated.goalID)],
                               inverse: old.map { [.goalUpdated(GoalUpdated(goalID: updated.goalID, goal: $0.goal))] })
        case .goalAmountSet(let set):
            let previous = goals[set.goalID]?.amount(on: set.date)
            return EventEffect(owned: [.goalAmounts(set.goalID)], referenced: [.goal(set.goalID)],
                               inverse: [.goalAmountSet(GoalAmountSet(goalID: set.goalID, date: set.date, amount: previous))])
        case .goalDeleted(let deleted):
            return EventEffect(owned: [.goal(deleted.goalID)], inverse: [.goalRestored(GoalRestored(goalID: deleted.goalID))])
        case .goalRestored(let restored):
            return EventEffect(owned: [.goal(restored.goalID)], inverse: [.goalDeleted(GoalDeleted(goalID: restored.goalID))])
        case .scenarioSaved(let saved):
            let previous = scenarios[saved.scenarioID].map(EventPayload.scenarioSaved)
                ?? .scenarioDeleted(ScenarioDeleted(scenarioID: saved.scenarioID))
            return EventEffect(owned: [.scenario(saved.scenarioID)], inverse: [previous])
        case .scenarioDeleted(let deleted):
            // Undo saves it again, and makes it active again if it was.
            let wasActive = activeScenario == deleted.scenarioID
            let saved = scenarios[deleted.scenarioID].map { [EventPayload.scenarioSaved($0)] } ?? []
            let reactivated = wasActive ? [EventPayload.scenarioActivated(ScenarioActivated(scenarioID: deleted.scenarioID))] : []
            return EventEffect(owned: [.scenario(deleted.scenarioID)] + (wasActive ? [.activeScenario] : []), inverse: saved + reactivated)
        case .scenarioActivated(let activated):
            // The scenario it replaces is referenced too: undo activates it again.
            let scenarios = [activated.scenarioID, activeScenario].compactMap { $0 }.map(EntityKey.scenario)
            return EventEffect(owned: [.activeScenario], referenced: scenarios,
                               inverse: [.scenarioActivated(ScenarioActivated(scenarioID: activeScenario))])
        case .alertSettingsSet:
            return EventEffect(owned: [.alertSettings], inverse: [.alertSettingsSet(alertSettings ?? .defaults)])
        case .walletBalanceAlertSet(let set):
            // T5: the wallet's alert as it was (none: a removal).
            let previous = balanceAlerts[set.walletID] ?? WalletBalanceAlertSet(walletID: set.walletID, below: nil, above: nil)
            return EventEffect(owned: [.balanceAlert(set.walletID)], referenced: [.wallet(set.walletID)], inverse: [.walletBalanceAlertSet(previous)])
        default:
            return nil
        }
    }
}

extension PlanningBook {
    func write(to writer: inout BinaryWriter) {
        writer.writeSorted(scenarios)
        writer.write(activeScenario)
        writer.write(alertSettings)
        writer.writeSorted(balanceAlerts)
    }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        scenarios = try reader.readDictionary()
        activeScenario = try reader.read()
        alertSettings = try reader.read()
        balanceAlerts = try reader.readDictionary()
    }
}
