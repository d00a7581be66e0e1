import TallyModel

extension FixtureEvents {
    /// `SampleDataLoaded` (tag 426, version 1) and `SampleDataCleared` (tag 428, version 1),
    /// Drishti E5-S6: two sample commands marked as sample, then the sample cleared.
    static let sampleData: [Event] = [
        Event(commandID: id(8426), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_600_000_000),
              payload: .sampleDataLoaded(SampleDataLoaded(commandIDs: [id(8420), id(8421)]))),
        Event(commandID: id(8428), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_796_600_001_000),
              payload: .sampleDataCleared(SampleDataCleared(loadCommandID: id(8426)))),
    ]
}
