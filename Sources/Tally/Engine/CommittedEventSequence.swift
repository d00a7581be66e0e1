import TallyModel

/// Every committed event after a sequence number, in order, without a gap, then each new one
/// as it is committed, until the ledger closes (``Ledger/committedEvents(after:)``): what an
/// integration (a sync client, an export feed, an audit log) follows, resuming from the last
/// sequence number it handled.
///
/// Events are read from the journal in pages of ``pageSize``, so a consumer that falls behind
/// costs nothing in memory and loses nothing: it reads on where it stopped. Commits only wake a
/// waiting iterator (a one-element signal), they are never queued. After the ledger closes the
/// iterator reads what is left from the journal on disk and then ends.
public struct CommittedEventSequence: AsyncSequence, Sendable {
    public typealias Element = CommittedEvent

    /// How many events one read of the journal hands over at most.
    public static let pageSize = 512

    let ledger: Ledger
    let start: UInt64

    public func makeAsyncIterator() -> Iterator {
        // Subscribed before the first read, so no commit between a read and a wait goes unseen.
        Iterator(ledger: ledger, next: start, signals: ledger.broadcaster.subscribe(limit: 1).makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let ledger: Ledger
        /// The next sequence number to hand over.
        var next: UInt64
        var signals: AsyncStream<CommittedEvent>.Iterator
        /// Read and not handed over yet, in reverse order.
        var waiting: [CommittedEvent] = []

        /// The next event; `nil` once the ledger closed and every event was handed over.
        /// - Throws: ``LedgerError/storage(_:)`` or ``LedgerError/codec(_:sequenceNumber:)`` when
        ///   the journal cannot be read; `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> CommittedEvent? {
            while true {
                try Task.checkCancellation()
                if let event = waiting.popLast() {
                    next = event.sequenceNumber + 1
                    return event
                }
                waiting = try await ledger.committedEvents(from: next, count: CommittedEventSequence.pageSize).reversed()
                if !waiting.isEmpty { continue }
                if await signals.next() == nil {
                    // Closed: what the journal holds beyond `next` was committed before the close.
                    waiting = try await ledger.committedEvents(from: next, count: CommittedEventSequence.pageSize).reversed()
                    if waiting.isEmpty { return nil }
                }
            }
        }
    }
}

extension Ledger {
    /// Every committed event after `sequenceNumber` (0: from the first), in order and without a
    /// gap, then each new one as it is committed, until the ledger closes: resumable from the
    /// last sequence number an integration handled, and never dropping an event whatever its
    /// pace (it reads from the journal; see ``CommittedEventSequence``). ``changes`` is the
    /// lighter stream for a consumer that keeps up.
    public nonisolated func committedEvents(after sequenceNumber: UInt64 = 0) -> CommittedEventSequence {
        // A sequence number past every possible one follows nothing (and never overflows).
        CommittedEventSequence(ledger: self, start: sequenceNumber == .max ? .max : sequenceNumber + 1)
    }

    /// Up to `count` acknowledged events from `start` (never beyond ``lastSequenceNumber``):
    /// from the open journal, or after the close from the journal on disk.
    func committedEvents(from start: UInt64, count: Int) throws(LedgerError) -> [CommittedEvent] {
        // Acknowledged only: after a failed sync the journal may hold frames refused to callers.
        guard start <= lastSequenceNumber else { return [] }
        let (sum, overflow) = start.addingReportingOverflow(UInt64(max(1, count)) - 1)
        let end = min(overflow ? UInt64.max : sum, lastSequenceNumber)
        var cursor: LedgerEventCursor
        if isClosed {
            cursor = try LedgerReplay.eventCursor(
                at: directory, from: start, through: end, encryption: options.encryption, fileSystem: options.fileSystem)
        } else {
            cursor = try eventCursor(from: start, through: end)
        }
        var events: [CommittedEvent] = []
        while let committed = try cursor.next() { events.append(committed) }
        return events
    }
}
