import TallyModel

extension FixtureEvents {
    /// `ScenarioSaved` version 2 (tag 630), Drishti E9-S1 and E9-S3: the "+5% savings rate"
    /// preset, and a scenario with amount deltas, a lump sum and a negative savings-rate delta.
    static let scenarioV2: [Event] = [
        .scenarioSaved(ScenarioSaved.savingsRatePreset(scenarioID: id(6310), currency: .chf)),
        .scenarioSaved(ScenarioSaved(
            scenarioID: id(6311), name: "Sabbatical", monthlyIncomeDelta: chf(-200_000), monthlyExpenseDelta: chf(-50_000),
            lumpSums: [ScenarioLumpSum(date: date(2027, 3, 1), amount: chf(-500_000))], savingsRateDeltaBasisPoints: -1_000)),
    ].enumerated().map { index, payload in
        Event(commandID: id(6320 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_100_000_000 + Int64(index) * 1000), payload: payload)
    }
}
