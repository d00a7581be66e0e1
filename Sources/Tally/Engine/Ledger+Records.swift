import TallyJournal
import TallyModel

extension Ledger {
    /// The journal record of an event: `recordedAt` next to tag and version, the codec's payload.
    static func record(for event: Event) -> NewRecord {
        let encoded = EventCodec.encode(event)
        return NewRecord(
            recordedAtMilliseconds: event.recordedAt.millisecondsSinceEpoch, typeTag: encoded.tag,
            schemaVersion: encoded.schemaVersion, payload: encoded.payload)
    }

    /// Decodes a journal record.
    static func decode(_ record: JournalRecord) throws(LedgerError) -> Event {
        do {
            return try EventCodec.decode(
                tag: record.typeTag, schemaVersion: record.schemaVersion, payload: Array(record.payload),
                recordedAt: Timestamp(millisecondsSinceEpoch: record.recordedAtMilliseconds))
        } catch {
            throw .codec(error, sequenceNumber: record.sequenceNumber)
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
        in reader: JournalReader, from start: UInt64, through end: UInt64, _ body: (CommittedEvent) -> Void
    ) throws(LedgerError) {
        guard start <= end else { return }
        var failure: LedgerError?
        do {
            try reader.forEachRecord(from: start, through: end) { record in
                do throws(LedgerError) {
                    body(CommittedEvent(sequenceNumber: record.sequenceNumber, event: try decode(record)))
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
