// The sample data (E5-S6) events: their tags. The current layout of each is its fields in
// declaration order, written by @WireFields (Docs/Events.md).

extension SampleDataLoaded: EventPayloadWire {
    package static var eventTag: EventTag { .sampleDataLoaded }
}

extension SampleDataCleared: EventPayloadWire {
    package static var eventTag: EventTag { .sampleDataCleared }
}
