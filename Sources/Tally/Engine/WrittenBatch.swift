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
    /// maps), so while it is kept, each later change of the head copies the paths it changes.
    ///
    /// Nil once a later batch of the same call was written (``Ledger/executeBatches(_:)``): that
    /// call's one wait for durability covers the later batch too, so only the last batch's state
    /// is needed, and the head changes in place within the call instead of copying paths for
    /// every batch. A stateless batch committed on its own (a sync of another caller covered it
    /// and not the later one, or a failed sync after it was durable) has its events folded onto
    /// the acknowledged state, the same fold.
    var state: LedgerState?

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
