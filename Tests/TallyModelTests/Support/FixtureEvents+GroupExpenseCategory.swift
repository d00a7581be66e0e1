import TallyModel

extension FixtureEvents {
    /// The events of `events-group-expense-category.bin`: `GroupExpenseRecorded` version 3, with
    /// and without the category it added.
    static let groupExpenseCategory: [Event] = [
        Event(commandID: id(5030), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_000),
              payload: .groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: id(82), groupID: tripGroup, paidBy: ben, amount: chf(9_001), date: date(2026, 2, 15),
                note: PersonalText("Groceries for the chalet", owner: ben),
                split: .equal([anna, ben, carla]),
                owed: [PersonShare(person: anna, amount: chf(3_001)), PersonShare(person: ben, amount: chf(3_000)),
                       PersonShare(person: carla, amount: chf(3_000))],
                categoryID: groceries))),
        Event(commandID: id(5031), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_001_000),
              payload: .groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: id(83), groupID: tripGroup, paidBy: anna, amount: chf(1_200), date: date(2026, 2, 16), note: nil,
                split: .exact([PersonShare(person: anna, amount: chf(600)), PersonShare(person: carla, amount: chf(600))]),
                owed: [PersonShare(person: anna, amount: chf(600)), PersonShare(person: carla, amount: chf(600))]))),
    ]
}
