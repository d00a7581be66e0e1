import TallyJournal
import TallyModel

/// A batch whose frame the journal wrote: its receipt and events, waiting in the ledger until
/// the frame is durable and the batch is committed (acknowledged).
struct WrittenBatch: Sendable {
    var receipt: AppendReceipt
    var events: [Event]

    /// The events with their sequence numbers.
    var committedEvents: [CommittedEvent] {
        events.enumerated().map { offset, event in
            CommittedEvent(sequenceNumber: receipt.firstSequenceNumber + UInt64(offset), event: event)
        }
    }

    /// What `execute` returns for it.
    var positions: [EventPosition] {
        events.enumerated().map { offset, event in
            EventPosition(sequenceNumber: receipt.firstSequenceNumber + UInt64(offset), commandID: event.commandID, tag: event.payload.tag)
        }
    }
}
