import HashTreeCollections
import TallyModel

/// A goal as the engine validates commands against it (R2): its definition, the amounts set by
/// hand (what undo puts back) and whether it is deleted.
@WireFields
package struct GoalRecord: Sendable, Equatable {
    /// What the goal is.
    package var goal: GoalDefinition
    /// The amounts set by hand, one per date, by date.
    package var amounts: [GoalAmountSet] = []
    /// Whether it is deleted (a restore brings it back whole).
    package var isDeleted = false

    /// The amount set for `date`, if any.
    func amount(on date: LocalDate) -> Money? { amounts.first { $0.date == date }?.amount }
}

/// The validation state of the planning features: goals (R2), scenarios and the active one
/// (R3), the alert settings (R6). Small (bounded by ``LedgerLimits``), kept whole.
package struct PlanningBook: Sendable, Equatable {
    /// Every goal ever created, deleted ones included.
    package internal(set) var goals: TreeDictionary<GoalID, GoalRecord> = [:]
    /// The saved scenarios (deleted ones are removed).
    package internal(set) var scenarios: TreeDictionary<ScenarioID, ScenarioSaved> = [:]
    /// The active scenario, if any.
    package internal(set) var activeScenario: ScenarioID?
    /// The household's alert settings, once set.
    package internal(set) var alertSettings: AlertSettingsSet?

    /// Live (not deleted) goals.
    package var liveGoalCount: Int { goals.values.count { !$0.isDeleted } }

    /// Folds a planning event; other events are ignored.
    mutating func apply(_ payload: EventPayload) {
        switch payload {
        case .goalCreated(let created): goals[created.goalID] = GoalRecord(goal: created.goal)
        case .goalUpdated(let updated): goals[updated.goalID]?.goal = updated.goal
        case .goalAmountSet(let set):
            goals[set.goalID]?.amounts.set(set)
        case .goalDeleted(let deleted): goals[deleted.goalID]?.isDeleted = true
        case .goalRestored(let restored): goals[restored.goalID]?.isDeleted = false
        case .scenarioSaved(let saved): scenarios[saved.scenarioID] = saved
        case .scenarioDeleted(let deleted):
            scenarios[deleted.scenarioID] = nil
            if activeScenario == deleted.scenarioID { activeScenario = nil }
        case .scenarioActivated(let activated): activeScenario = activated.scenarioID
        case .alertSettingsSet(let settings): alertSettings = settings
        default: break
        }
    }

    /// The keys a planning event owns and references and its compensating events (T5), against
    /// the book before it; `nil` for other events.
    func effect(of payload: EventPayload) -> EventEffect? {
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
        default:
            return nil
        }
    }
}

extension PlanningBook {
    func write(to writer: inout BinaryWriter) {
        writer.writeSorted(goals)
        writer.writeSorted(scenarios)
        writer.write(activeScenario)
        writer.write(alertSettings)
    }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        goals = try reader.readDictionary()
        scenarios = try reader.readDictionary()
        activeScenario = try reader.read()
        alertSettings = try reader.read()
    }
}
