import TallyModel

extension FixtureEvents {
    /// Goals, scenarios and alert settings (tags 620-624, 630-632, 640, version 1; R2, R3, R6):
    /// a linked goal and a goal tracked by hand, its amount set and removed, an edit, a delete
    /// and a restore; a scenario with a lump sum, activated, deactivated and deleted; alert
    /// settings with and without a large-transaction amount.
    static let planning: [Event] = {
        let payloads: [EventPayload] = [
            .goalCreated(GoalCreated(goalID: id(620), goal: GoalDefinition(name: "Emergency fund", target: chf(1_000_000), targetDate: date(2027, 6, 30), walletIDs: [bank, card]))),
            .goalCreated(GoalCreated(goalID: id(621), goal: GoalDefinition(name: "Bike", target: chf(150_000)))),
            .goalAmountSet(GoalAmountSet(goalID: id(621), date: date(2026, 11, 1), amount: chf(40_000))),
            .goalAmountSet(GoalAmountSet(goalID: id(621), date: date(2026, 11, 1), amount: nil)),
            .goalUpdated(GoalUpdated(goalID: id(621), goal: GoalDefinition(name: "E-bike", target: chf(300_000), targetDate: nil, walletIDs: []))),
            .goalDeleted(GoalDeleted(goalID: id(621))),
            .goalRestored(GoalRestored(goalID: id(621))),
            .scenarioSaved(ScenarioSaved(
                scenarioID: id(630), name: "Raise", monthlyIncomeDelta: chf(50_000), monthlyExpenseDelta: chf(-10_000),
                lumpSums: [ScenarioLumpSum(date: date(2027, 3, 15), amount: chf(-250_000))])),
            .scenarioActivated(ScenarioActivated(scenarioID: id(630))),
            .scenarioActivated(ScenarioActivated(scenarioID: nil)),
            .scenarioDeleted(ScenarioDeleted(scenarioID: id(630))),
            .alertSettingsSet(AlertSettingsSet(budgetThresholds: [50, 80, 100], upcomingDays: 3, staleBalanceDays: 45, largeTransaction: chf(50_000))),
            // Recorded at version 1: the defaults of then, without the version 2 fields.
            .alertSettingsSet(AlertSettingsSet(budgetThresholds: [80, 100], upcomingDays: 7, staleBalanceDays: 30, largeTransaction: nil)),
        ]
        return payloads.enumerated().map { index, payload in
            Event(commandID: id(6200 + UInt64(index)), actor: anna,
                  recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_000_000 + Int64(index) * 1000), payload: payload)
        }
    }()
}

extension FixtureEvents {
    /// `AlertSettingsSet` version 2 (R6, Swiff 4.2.1, 4.1.3): the price-increase window and the
    /// settle-up threshold, set and turned off.
    static let alertSettingsV2: [Event] = [
        .alertSettingsSet(AlertSettingsSet(
            budgetThresholds: [80], upcomingDays: 5, staleBalanceDays: 0, largeTransaction: nil, priceIncreaseDays: 14,
            settleUpThreshold: chf(5_000))),
        .alertSettingsSet(AlertSettingsSet.defaults),
    ].enumerated().map { index, payload in
        Event(commandID: id(6400 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_800_000_000 + Int64(index) * 1000), payload: payload)
    }
}
