import TallyModel

extension FixtureEvents {
    /// `WalletValuationSet` (tag 221, version 1, W5): a bank account observed through its
    /// balance points, set back to tracked, and to its kind's default (no valuation: undo).
    static let walletValuation: [Event] = [
        Event(commandID: id(2211), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_000_000),
              payload: .walletValuationSet(WalletValuationSet(walletID: bank, valuation: .observed))),
        Event(commandID: id(2212), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_001_000),
              payload: .walletValuationSet(WalletValuationSet(walletID: bank, valuation: .tracked))),
        Event(commandID: id(2213), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_002_000),
              payload: .walletValuationSet(WalletValuationSet(walletID: bank, valuation: nil))),
    ]

    /// `WalletReopened` (tag 209, version 1, W4): a closed wallet opened again.
    static let walletReopened: [Event] = [
        Event(commandID: id(2091), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_600_000_000),
              payload: .walletReopened(WalletReopened(walletID: bank))),
    ]
}
