import TallyModel

extension FixtureEvents {
    /// Issue 18.9: `PaydaySet` version 2, biweekly paydays (`intervalDays`). Recorded once in
    /// `events-pay-schedule.bin`; never edited.
    static let paySchedule: [Event] = [
        Event(commandID: id(6110), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_400_002_000),
              payload: .paydaySet(PaydaySet(day: 25, effectiveFrom: date(2026, 12, 25), intervalDays: 14))),
    ]
}
