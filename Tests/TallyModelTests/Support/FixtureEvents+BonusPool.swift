import TallyModel

extension FixtureEvents {
    /// The bonus pool (Flow US-066): `BonusMarked` (606), `BonusAllocated` (607) to a category
    /// and to a goal, `BonusRolledIn` (608). Recorded once in `events-bonus-pool.bin`; never edited.
    static let bonusPool: [Event] = [
        Event(commandID: id(6060), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_010_000),
              payload: .bonusMarked(BonusMarked(transactionID: id(31), isBonus: true))),
        Event(commandID: id(6070), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_011_000),
              payload: .bonusAllocated(BonusAllocated(transactionID: id(31), categoryID: groceries, goalID: nil, amount: chf(50_000)))),
        Event(commandID: id(6071), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_012_000),
              payload: .bonusAllocated(BonusAllocated(transactionID: id(31), categoryID: nil, goalID: id(6200), amount: chf(30_000)))),
        Event(commandID: id(6080), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_013_000),
              payload: .bonusRolledIn(BonusRolledIn(transactionID: id(31), amount: chf(20_000)))),
    ]
}
