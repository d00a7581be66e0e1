import TallyModel

extension FixtureEvents {
    /// `WalletConnectionSet` (tag 223, version 1), Tim Step 2.2: every field, then needing
    /// re-authentication without an account id, then a removal.
    static let walletConnection: [Event] = [
        Event(commandID: id(8801), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_600_000_000),
              payload: .walletConnectionSet(WalletConnectionSet(
                walletID: bank, institution: PersonalText("PostFinance", owner: anna),
                externalAccountID: PersonalText("CH93 0076 2011 6238 5295 7", owner: anna), status: .connected))),
        Event(commandID: id(8802), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_600_001_000),
              payload: .walletConnectionSet(WalletConnectionSet(
                walletID: bank, institution: PersonalText("PostFinance", owner: anna), externalAccountID: nil,
                status: .needsReauthentication))),
        Event(commandID: id(8803), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_600_002_000),
              payload: .walletConnectionSet(WalletConnectionSet(walletID: bank, institution: nil, externalAccountID: nil, status: nil))),
    ]
}
