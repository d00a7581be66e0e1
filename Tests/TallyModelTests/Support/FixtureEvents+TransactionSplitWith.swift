import TallyModel

extension FixtureEvents {
    /// Issue 18.4: `TransactionRecorded` version 4 and `TransactionEdited` version 3, with the
    /// split with chosen people they added (`splitWith`). Recorded once in
    /// `events-transaction-split-with.bin`; never edited.
    static let transactionSplitWith: [Event] = [
        Event(commandID: id(4300), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_600_000_000),
              payload: .transactionRecorded(TransactionRecorded(
                transactionID: id(33),
                details: TransactionDetails(
                    kind: .expense, amount: chf(10_001), walletID: bank, categoryID: groceries, date: date(2026, 2, 20),
                    note: PersonalText("Picnic", owner: anna), tags: [], payer: anna,
                    split: TransactionSplit(ratios: [], isOverride: true, shares: [
                        PersonShare(person: anna, amount: chf(3_334)), PersonShare(person: ben, amount: chf(3_334)),
                        PersonShare(person: carla, amount: chf(3_333)),
                    ])),
                splitWith: .equal([anna, ben, carla])))),
        Event(commandID: id(4301), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_600_001_000),
              payload: .transactionEdited(TransactionEdited(
                transactionID: id(33),
                details: TransactionDetails(
                    kind: .expense, amount: chf(9_000), walletID: bank, categoryID: groceries, date: date(2026, 2, 20),
                    note: nil, tags: [], payer: anna,
                    split: TransactionSplit(ratios: [], isOverride: true, shares: [
                        PersonShare(person: anna, amount: chf(3_000)), PersonShare(person: carla, amount: chf(6_000)),
                    ])),
                splitWith: .exact([PersonShare(person: anna, amount: chf(3_000)), PersonShare(person: carla, amount: chf(6_000))])))),
    ]
}
