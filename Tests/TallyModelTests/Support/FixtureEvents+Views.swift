import TallyModel

extension FixtureEvents {
    /// `ViewSaved` (tag 650, version 1), `ViewRenamed` (651, version 1) and `ViewDeleted` (652,
    /// version 1), Flow US-058 and Swiff 2.3.3: a private saved filter with every filter field,
    /// a shared report template with a relative range, one with a custom range, a rename and a
    /// deletion. Version 1 stored the names as plain strings: they read as the actor's text.
    static let views: [Event] = [
        Event(commandID: id(8101), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000),
              payload: .viewSaved(ViewSaved(
                viewID: id(8201), name: PersonalText("Big groceries", owner: anna), owner: anna, shared: false,
                filter: TransactionFilter(
                    walletIDs: [bank, card], categoryIDs: [groceries], payers: [anna], people: [ben], shared: true,
                    tags: ["weekly", "bio"], kinds: [.expense], text: "migros coop", minorUnits: 5_000...20_000),
                report: nil))),
        Event(commandID: id(8102), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_000_001_000),
              payload: .viewSaved(ViewSaved(
                viewID: id(8202), name: PersonalText("Monthly spending", owner: ben), owner: ben, shared: true,
                filter: TransactionFilter(kinds: [.expense]),
                report: ReportLayout(range: .lastTwelveMonths, span: .month)))),
        Event(commandID: id(8103), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_000_002_000),
              payload: .viewSaved(ViewSaved(
                viewID: id(8203), name: PersonalText("Holiday by category", owner: anna), owner: anna, shared: false, filter: TransactionFilter(tags: ["holiday"]),
                report: ReportLayout(range: .custom, span: .range, from: date(2026, 7, 1), through: date(2026, 7, 31))))),
        Event(commandID: id(8104), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_000_003_000),
              payload: .viewRenamed(ViewRenamed(viewID: id(8201), name: PersonalText("Large groceries", owner: anna)))),
        Event(commandID: id(8105), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_000_004_000),
              payload: .viewDeleted(ViewDeleted(viewID: id(8203)))),
    ]
}
