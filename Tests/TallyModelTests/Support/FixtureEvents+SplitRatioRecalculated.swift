import TallyModel

extension FixtureEvents {
    /// `SplitRatioRecalculated` (tag 605, version 1, S4, Flow US-067): an income-based ratio
    /// computed again at a period start, and a fallback to the manual ratios on request.
    /// Recorded once in `events-split-ratio-recalculated.bin`; never edited.
    static let splitRatioRecalculated: [Event] = [
        Event(commandID: id(6050), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_000_000),
              payload: .splitRatioRecalculated(SplitRatioRecalculated(
                periodStart: date(2026, 12, 1),
                ratios: [MemberRatio(person: anna, ratio: ratio(5800)), MemberRatio(person: ben, ratio: ratio(4200))],
                isFallback: false))),
        Event(commandID: id(6051), actor: ben, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_001_000),
              payload: .splitRatioRecalculated(SplitRatioRecalculated(
                periodStart: nil,
                ratios: [MemberRatio(person: anna, ratio: ratio(6000)), MemberRatio(person: ben, ratio: ratio(4000))],
                isFallback: true))),
    ]
}
