import TallyModel

extension FixtureEvents {
    /// `ViewSaved` and `ViewRenamed` version 2 (tags 650, 651): the name is personal text of the
    /// view's owner (P1), so forgetting them redacts it (P3). Recorded once in
    /// `events-views-v2.bin`; never edited.
    static let viewsV2: [Event] = [
        Event(commandID: id(8111), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_100_000_000),
              payload: .viewSaved(ViewSaved(
                viewID: id(8211), name: PersonalText("Gifts for Anna", owner: ben), owner: ben, shared: false,
                filter: TransactionFilter(tags: ["gift"]), report: ReportLayout(range: .yearToDate, span: .month)))),
        Event(commandID: id(8112), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_100_001_000),
              payload: .viewRenamed(ViewRenamed(viewID: id(8211), name: PersonalText("Presents", owner: ben)))),
    ]
}
