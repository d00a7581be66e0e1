import TallyModel

extension FixtureEvents {
    /// Issue 18.3: `GroupExpenseRecorded` version 4 (with its title) and the group expense
    /// changes: `GroupExpenseEdited`, `GroupExpenseSettledMarked`, `GroupExpenseDeleted`,
    /// `GroupExpenseRestored`. Recorded once in `events-group-expense-editing.bin`; never edited.
    static let groupExpenseEditing: [Event] = [
        Event(commandID: id(5200), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_000_000),
              payload: .groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: id(84), groupID: tripGroup, paidBy: ben, amount: chf(10_001), date: date(2026, 2, 17),
                note: PersonalText("Paid by card", owner: ben), split: .equal([anna, ben, carla]),
                owed: [PersonShare(person: anna, amount: chf(3_334)), PersonShare(person: ben, amount: chf(3_334)),
                       PersonShare(person: carla, amount: chf(3_333))],
                categoryID: groceries, title: PersonalText("Dinner at the lake", owner: ben)))),
        Event(commandID: id(5201), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_001_000),
              payload: .groupExpenseEdited(GroupExpenseEdited(expense: GroupExpenseRecorded(
                expenseID: id(84), groupID: tripGroup, paidBy: anna, amount: chf(9_000), date: date(2026, 2, 18), note: nil,
                split: .percentage([MemberRatio(person: anna, ratio: ratio(5_000)), MemberRatio(person: carla, ratio: ratio(5_000))]),
                owed: [PersonShare(person: anna, amount: chf(4_500)), PersonShare(person: carla, amount: chf(4_500))],
                categoryID: nil, title: PersonalText("Dinner and drinks", owner: anna))))),
        Event(commandID: id(5202), actor: carla, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_002_000),
              payload: .groupExpenseSettledMarked(GroupExpenseSettledMarked(expenseID: id(84), isSettled: true))),
        Event(commandID: id(5203), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_003_000),
              payload: .groupExpenseDeleted(GroupExpenseDeleted(expenseID: id(83)))),
        Event(commandID: id(5204), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_500_004_000),
              payload: .groupExpenseRestored(GroupExpenseRestored(expenseID: id(83)))),
    ]
}
