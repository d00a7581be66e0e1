import TallyModel
import TallyProjections
import TallyStore

/// Goals (R2), scenarios (R3) and alerts (R6) as of the last acknowledged batch
/// (Docs/Planning.md); ``observePlanning(_:)`` delivers them as they change.
extension Ledger {
    /// The planning view of the last acknowledged batch, over `store` when it shows it.
    func planningView(store: LedgerStore?) -> PlanningView {
        PlanningView(state: queryState, models: servedModels, store: store)
    }

    /// The planning view without the store: goals, scenarios and settings read the state.
    private var planning: PlanningView { planningView(store: nil) }

    /// Every live goal `viewer` sees (G7: not one saved in another member's own wallet), with
    /// its progress at the end of `date`, by name then id (R2).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a converted total does not fit (G1).
    public func goals(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> [GoalProgress] {
        try planning.goals(on: date, visibleTo: viewer)
    }

    /// One goal's progress at the end of `date` (R2).
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownGoal` when no live goal `viewer` sees has `id`.
    public func goal(_ id: GoalID, on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> GoalProgress {
        try planning.goal(id, on: date, visibleTo: viewer)
    }

    /// Every milestone the live goals `viewer` sees reached, in the order they were reached (R2).
    public func goalMilestones(visibleTo viewer: Viewer) -> [GoalMilestone] { planning.goalMilestones(visibleTo: viewer) }

    /// The saved scenarios, by name then id, and the active one (R3).
    public var scenarios: (saved: [ScenarioSaved], active: ScenarioID?) { (planning.scenarios, planning.activeScenarioID) }

    /// The baseline and scenario `id` (`nil`: the active one) side by side for 12 months (R3);
    /// a savings-rate delta is turned into a monthly amount from the three whole months before
    /// `date`'s month (``PlanningView/scenarioSeries(_:on:)``).
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownScenario`; ``LedgerError/invalidQuery(_:)``;
    ///   ``LedgerError/readSide(_:)`` for a savings-rate delta without a store.
    public func scenarioSeries(_ id: ScenarioID? = nil, on date: LocalDate) throws(LedgerError) -> ScenarioSeries {
        let scenario = try planning.resolvedScenario(id)
        // Only a savings-rate delta reads the store: flush it only then.
        let needsStore = (scenario?.savingsRateDeltaBasisPoints ?? 0) != 0
        return try planningView(store: needsStore ? flushedStore() : nil).scenarioSeries(of: scenario, on: date)
    }

    /// The alert settings in force (R6).
    public var alertSettings: AlertSettingsSet { planning.alertSettings }

    /// The wallets' balance alerts `viewer` sees (R6, G7; ``PlanningView/balanceAlerts(visibleTo:)``).
    public func balanceAlerts(visibleTo viewer: Viewer) -> [WalletBalanceAlertSet] { planning.balanceAlerts(visibleTo: viewer) }

    /// The alerts in force at the end of `date` for `viewer` (R6, G7; ``PlanningView/alerts(on:visibleTo:)``).
    public func alerts(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> [LedgerAlert] {
        // Only large-transaction and spike alerts read the store: flush it only when they are set.
        let settings = planning.alertSettings
        let needsStore = settings.largeTransaction != nil || settings.spikePercent != nil
        return try planningView(store: needsStore ? flushedStore() : nil).alerts(on: date, visibleTo: viewer)
    }
}
