import TallyModel

extension FixtureEvents {
    /// `WalletBalanceAlertSet` (tag 222, version 1), Tim post-MVP alerts (R6): both thresholds,
    /// only a lower one, and a removal.
    static let balanceAlerts: [Event] = [
        Event(commandID: id(8701), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_500_000_000),
              payload: .walletBalanceAlertSet(WalletBalanceAlertSet(walletID: bank, below: chf(50_000), above: chf(2_000_000)))),
        Event(commandID: id(8702), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_500_001_000),
              payload: .walletBalanceAlertSet(WalletBalanceAlertSet(walletID: card, below: chf(0), above: nil))),
        Event(commandID: id(8703), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_500_002_000),
              payload: .walletBalanceAlertSet(WalletBalanceAlertSet(walletID: card, below: nil, above: nil))),
    ]
}
