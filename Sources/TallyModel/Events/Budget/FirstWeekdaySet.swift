/// The household's first day of the week changed (B5, Swiff 2.4.1): every week the engine
/// computes from then on (weekly allowances and savings progress of open periods, week spans of
/// analytics and report templates) starts on it. A household that never set it starts weeks on
/// Monday. A closed period's snapshot keeps the weeks it was frozen with (B6).
///
/// Tag 609, schema version 1 (see ``EventTag/firstWeekdaySet`` and `Docs/Events.md`).
@WireFields
public struct FirstWeekdaySet: Hashable, Sendable {
    /// The day weeks start on.
    public let firstWeekday: Weekday

    /// Creates the payload.
    public init(firstWeekday: Weekday) {
        self.firstWeekday = firstWeekday
    }
}
