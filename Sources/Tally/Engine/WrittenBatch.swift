import TallyJournal
import TallyModel

/// A batch whose frame the journal wrote: its receipt and events, waiting in the ledger until
/// the frame is durable and the batch is committed (acknowledged).
struct WrittenBatch: Sendable {
    var receipt: AppendReceipt
    var events: [Event]
    /// The validation state right after the batch: validation folded its events once, and the
    /// commit makes this value the acknowledged state (``Ledger/current``) instead of folding
    /// them again. It shares the growing maps with the states before and after it (persistent
    /// maps: a later batch copies only the paths it changes) and copies the small plain ones
    /// (wallets, categories, the money exposure) a later batch changes.
    var state: LedgerState

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
