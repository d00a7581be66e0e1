import TallyModel

extension FixtureEvents {
    /// `FirstWeekdaySet` (tag 609, version 1), Swiff 2.4.1 (B5): weeks from Sunday, then back
    /// to Monday.
    static let firstWeekday: [Event] = [
        Event(commandID: id(8601), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_400_000_000),
              payload: .firstWeekdaySet(FirstWeekdaySet(firstWeekday: .sunday))),
        Event(commandID: id(8602), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_400_001_000),
              payload: .firstWeekdaySet(FirstWeekdaySet(firstWeekday: .monday))),
    ]
}
