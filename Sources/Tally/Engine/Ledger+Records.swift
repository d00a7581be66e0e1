import TallyJournal
import TallyModel

extension Ledger {
    /// The journal record of an event: `recordedAt` next to tag and version, the codec's
    /// payload with every personal text sealed by `keys` (P1).
    static func record(for event: Event, sealingWith keys: PersonalKeyRing) -> NewRecord {
        var writer = BinaryWriter(reservingCapacity: 96)
        writer.personalTextCipher = keys
        let tag = EventCodec.encode(event, into: &writer)
        return NewRecord(
            recordedAtMilliseconds: event.recordedAt.millisecondsSinceEpoch, typeTag: tag.rawValue,
            schemaVersion: tag.schemaVersion, payload: writer.bytes)
    }

    /// Decodes a journal record, opening personal texts with `keys` (a forgotten owner's read
    /// as redacted; without keys, or without a living owner's key, they read as sealed).
    static func decode(_ record: JournalRecord, personalTexts keys: PersonalKeyRing?) throws(LedgerError) -> Event {
        try decode(
            tag: record.typeTag, schemaVersion: record.schemaVersion, payload: Array(record.payload),
            recordedAtMilliseconds: record.recordedAtMilliseconds, sequenceNumber: record.sequenceNumber, personalTexts: keys)
    }

    /// Decodes records to be appended from sequence number `first` on (a frame of another
    /// ledger's history, Docs/Sync.md), as ``decode(_:personalTexts:)`` does.
    static func decode(_ records: [NewRecord], from first: UInt64, personalTexts keys: PersonalKeyRing?) throws(LedgerError) -> [Event] {
        var events: [Event] = []
        events.reserveCapacity(records.count)
        for (offset, record) in records.enumerated() {
            events.append(try decode(
                tag: record.typeTag, schemaVersion: record.schemaVersion, payload: record.payload,
                recordedAtMilliseconds: record.recordedAtMilliseconds, sequenceNumber: first + UInt64(offset), personalTexts: keys))
        }
        return events
    }

    private static func decode(
        tag: UInt32, schemaVersion: UInt16, payload: [UInt8], recordedAtMilliseconds: Int64, sequenceNumber: UInt64,
        personalTexts keys: PersonalKeyRing?
    ) throws(LedgerError) -> Event {
        do {
            return try EventCodec.decode(
                tag: tag, schemaVersion: schemaVersion, payload: payload,
                recordedAt: Timestamp(millisecondsSinceEpoch: recordedAtMilliseconds), personalTexts: keys)
        } catch {
            throw .codec(error, sequenceNumber: sequenceNumber)
        }
    }

    static func reader(of journal: Journal) throws(LedgerError) -> JournalReader {
        do {
            return try journal.reader()
        } catch {
            throw .storage(error)
        }
    }

    /// Calls `body` with every decoded event in a range.
    static func forEachEvent(
        in reader: JournalReader, from start: UInt64, through end: UInt64, personalTexts keys: PersonalKeyRing?,
        _ body: (CommittedEvent) -> Void
    ) throws(LedgerError) {
        guard start <= end else { return }
        var failure: LedgerError?
        do {
            try reader.forEachRecord(from: start, through: end) { record in
                do throws(LedgerError) {
                    body(CommittedEvent(sequenceNumber: record.sequenceNumber, event: try decode(record, personalTexts: keys)))
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch let error as JournalError {
            throw .storage(error)
        } catch {
            throw .storage(.journalFailed(reason: "reading failed: \(error)"))
        }
        if let failure { throw failure }
    }
}
