import TallyModel

extension FixtureEvents {
    /// `PaydaySet` version 3: paydays twice a month (`secondDay`, Flow "bi-monthly paydays").
    /// Recorded once in `events-payday-v3.bin`; never edited.
    static let paydayV3: [Event] = [
        Event(commandID: id(6003), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_700_002_000),
              payload: .paydaySet(PaydaySet(day: 1, effectiveFrom: date(2027, 1, 1), secondDay: 15))),
    ]
}
