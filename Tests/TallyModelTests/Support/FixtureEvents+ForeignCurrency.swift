import TallyModel

extension FixtureEvents {
    /// T7 (Swiff Phase 5 currency): `TransactionRecorded` version 5 and `TransactionEdited`
    /// version 4, with the amount charged in another currency they added (`originalAmount`).
    /// Recorded once in `events-foreign-currency.bin`; never edited.
    static let foreignCurrency: [Event] = [
        Event(commandID: id(4700), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_000_000),
              payload: .transactionRecorded(TransactionRecorded(
                transactionID: id(34),
                details: TransactionDetails(
                    kind: .expense, amount: chf(4_735), walletID: bank, categoryID: groceries, date: date(2026, 3, 2),
                    note: PersonalText("Dinner in Milan", owner: anna), tags: ["travel"], payer: anna, split: nil),
                originalAmount: eur(5_000)))),
        Event(commandID: id(4701), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_001_000),
              payload: .transactionEdited(TransactionEdited(
                transactionID: id(34),
                details: TransactionDetails(
                    kind: .expense, amount: chf(4_810), walletID: bank, categoryID: groceries, date: date(2026, 3, 2),
                    note: nil, tags: [], payer: anna, split: nil),
                originalAmount: Money(minorUnits: 5_500, currency: .usd)))),
    ]
}
