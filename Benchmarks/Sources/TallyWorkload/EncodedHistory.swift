import TallyJournal
import TallyModel

/// The encoded form of workload events, as the journal stores them: tag, schema version,
/// payload bytes (`EventCodec`) and `recordedAt`, one `NewRecord` per event.
public enum EncodedHistory {
    /// The journal record of `event`.
    public static func record(_ event: Event) -> NewRecord {
        let encoded = EventCodec.encode(event)
        return NewRecord(
            recordedAtMilliseconds: event.recordedAt.millisecondsSinceEpoch, typeTag: encoded.tag,
            schemaVersion: encoded.schemaVersion, payload: encoded.payload)
    }

    /// The journal records of `events`, in order.
    public static func records(_ events: some Sequence<Event>) -> [NewRecord] {
        events.map(record)
    }

    /// Decodes a record read back from a journal.
    /// - Throws: `EventCodecError` when the payload does not decode.
    public static func decode(_ record: JournalRecord) throws(EventCodecError) -> Event {
        try EventCodec.decode(
            tag: record.typeTag, schemaVersion: record.schemaVersion, payload: Array(record.payload),
            recordedAt: Timestamp(millisecondsSinceEpoch: record.recordedAtMilliseconds))
    }
}

extension HouseholdHistory {
    /// The events' journal records, generated and encoded lazily.
    public var records: LazyMapSequence<HouseholdHistory, NewRecord> {
        lazy.map(EncodedHistory.record)
    }
}
