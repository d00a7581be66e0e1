import TallyModel

extension FixtureEvents {
    /// `WalletDesignationSet` (tag 220, version 1, N5): one for every month, one from a month
    /// on, and the removal undo appends (no designation).
    static let walletDesignation: [Event] = [
        Event(commandID: id(2201), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_000),
              payload: .walletDesignationSet(WalletDesignationSet(walletID: bank, designation: .both, fromMonth: nil))),
        Event(commandID: id(2202), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_001_000),
              payload: .walletDesignationSet(WalletDesignationSet(walletID: card, designation: .outflow, fromMonth: month(2026, 11)))),
        Event(commandID: id(2203), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_002_000),
              payload: .walletDesignationSet(WalletDesignationSet(walletID: card, designation: nil, fromMonth: month(2026, 11)))),
    ]

    static func month(_ year: Int, _ month: Int) -> YearMonth {
        guard let value = try? YearMonth(year: year, month: month) else { preconditionFailure("bad fixture month") }
        return value
    }
}
