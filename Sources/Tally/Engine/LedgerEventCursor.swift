import TallyJournal
import TallyModel

/// Committed events read from the journal one frame at a time: memory holds one frame's
/// records whatever the range (``Ledger/eventCursor(from:through:)``,
/// ``LedgerReplay/eventCursor(at:from:through:encryption:fileSystem:allowingDamage:)``).
///
/// ```swift
/// var cursor = try await ledger.eventCursor(from: 1)
/// while let committed = try cursor.next() { print(committed.sequenceNumber) }
/// ```
public struct LedgerEventCursor: Sendable {
    private var frames: JournalFrameCursor
    private let start: UInt64
    private let end: UInt64
    private let keys: PersonalKeyRing?
    private var records: [JournalRecord] = []
    private var position = 0
    private var isFinished: Bool

    init(reader: JournalReader, from start: UInt64, through end: UInt64, personalTexts keys: PersonalKeyRing?) {
        self.frames = reader.frameCursor(from: start)
        self.start = start
        self.end = min(end, reader.lastSequenceNumber)
        self.keys = keys
        self.isFinished = start > self.end
    }

    /// The next event, or nil after the last one of the range.
    /// - Throws: ``LedgerError/storage(_:)`` (damage, I/O, keys) and
    ///   ``LedgerError/codec(_:sequenceNumber:)``; the cursor is finished after an error.
    public mutating func next() throws(LedgerError) -> CommittedEvent? {
        while !isFinished {
            if position < records.count {
                let record = records[position]
                position += 1
                if record.sequenceNumber < start { continue }
                if record.sequenceNumber > end { break }
                do {
                    return CommittedEvent(sequenceNumber: record.sequenceNumber, event: try Ledger.decode(record, personalTexts: keys))
                } catch {
                    isFinished = true
                    throw error
                }
            }
            let frame: JournalFrame?
            do {
                frame = try frames.next()
            } catch {
                isFinished = true
                throw .storage(error)
            }
            guard let frame else { break }
            records = frame.records
            position = 0
        }
        isFinished = true
        records = []
        return nil
    }

    /// Every event left in the range (for a bounded range: an activity window).
    /// - Throws: as ``next()``.
    package mutating func drain() throws(LedgerError) -> [CommittedEvent] {
        var events: [CommittedEvent] = []
        while let committed = try next() { events.append(committed) }
        return events
    }
}
