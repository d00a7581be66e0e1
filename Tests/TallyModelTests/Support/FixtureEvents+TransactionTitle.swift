import TallyModel

extension FixtureEvents {
    /// Swiff 1.1.2 Transaction (title and subtitle), Flow US-072: `TransactionRecorded` version 6
    /// and `TransactionEdited` version 5, with the payee and subtitle they added (personal text of
    /// the actor, P1). Recorded once in `events-transaction-title.bin`; never edited.
    static let transactionTitle: [Event] = [
        Event(commandID: id(4800), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_800_000_000),
              payload: .transactionRecorded(TransactionRecorded(
                transactionID: id(35),
                details: TransactionDetails(
                    kind: .expense, amount: chf(2_380), walletID: bank, categoryID: groceries, date: date(2026, 3, 9),
                    note: PersonalText("for the weekend", owner: anna), tags: [], payer: anna, split: nil),
                payee: PersonalText("Migros Zürich", owner: anna), subtitle: PersonalText("Weekly shop", owner: anna)))),
        Event(commandID: id(4801), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_800_001_000),
              payload: .transactionEdited(TransactionEdited(
                transactionID: id(35),
                details: TransactionDetails(
                    kind: .expense, amount: chf(2_380), walletID: bank, categoryID: groceries, date: date(2026, 3, 9),
                    note: PersonalText("for the weekend", owner: anna), tags: [], payer: anna, split: nil),
                payee: PersonalText("Migros Zürich", owner: anna), subtitle: nil))),
        Event(commandID: id(4802), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_800_002_000),
              payload: .transactionEdited(TransactionEdited(
                transactionID: id(35),
                details: TransactionDetails(
                    kind: .expense, amount: chf(2_380), walletID: bank, categoryID: groceries, date: date(2026, 3, 9),
                    note: nil, tags: [], payer: anna, split: nil),
                payee: PersonalText("Coop", owner: ben), subtitle: PersonalText("Pronto", owner: ben)))),
    ]
}
