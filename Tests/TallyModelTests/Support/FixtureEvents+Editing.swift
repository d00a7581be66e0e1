import TallyModel

extension FixtureEvents {
    /// Issue 18 (editing what a user created): a person's new name and contact fields (H3), a
    /// removed balance point (W5), an edited transfer (W6), a category's
    /// new bucket, icon and color and a new category order (C1) and a removed budget allocation (B2). Recorded once in `events-editing.bin`; never edited.
    static let editing: [Event] = [
        Event(commandID: id(1100), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_399_999_000),
              payload: .personUpdated(PersonUpdated(
                personID: ben, name: PersonalText("Benjamin", owner: ben), email: PersonalText("ben@example.ch", owner: ben),
                phone: nil))),
        Event(commandID: id(2300), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_000),
              payload: .balanceRemoved(BalanceRemoved(walletID: bank, date: date(2026, 11, 30)))),
        Event(commandID: id(2310), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_500),
              payload: .transferEdited(TransferEdited(transfer: TransferRecorded(
                transferID: id(40), fromWalletID: card, toWalletID: bank, amountSent: eur(10_650), amountReceived: chf(10_000),
                date: date(2026, 11, 3), note: PersonalText("FX back", owner: ben))))),
        Event(commandID: id(3100), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_700),
              payload: .categoryUpdated(CategoryUpdated(categoryID: groceries, budgetType: .wants, icon: "🥦", color: "#4CAF50"))),
        Event(commandID: id(3110), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_000_800),
              payload: .categoriesReordered(CategoriesReordered(categoryIDs: [salary, groceries]))),
        Event(commandID: id(6100), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_001_000),
              payload: .budgetRemoved(BudgetRemoved(categoryID: groceries, fromPeriod: date(2026, 12, 25)))),
    ]
}
