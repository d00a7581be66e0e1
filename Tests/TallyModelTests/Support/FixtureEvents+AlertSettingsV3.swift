import TallyModel

extension FixtureEvents {
    /// `AlertSettingsSet` version 3 (tag 640), Swiff 4.3.1: a spending-spike percent, and
    /// settings without one.
    static let alertSettingsV3: [Event] = [
        .alertSettingsSet(AlertSettingsSet(
            budgetThresholds: [80, 100], upcomingDays: 7, staleBalanceDays: 30, largeTransaction: chf(50_000), priceIncreaseDays: 7,
            settleUpThreshold: nil, spikePercent: 150)),
        .alertSettingsSet(AlertSettingsSet(budgetThresholds: [100], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil, spikePercent: nil)),
    ].enumerated().map { index, payload in
        Event(commandID: id(6410 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_200_000_000 + Int64(index) * 1000), payload: payload)
    }
}
