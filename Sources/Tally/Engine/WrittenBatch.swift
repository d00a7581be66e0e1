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
    /// Nil once a later batch of the same call was written (``Ledger/executeBatches(_:)``; not
    /// for a batch that forgets a person, P3): that call's one wait for durability covers the
    /// later batch too, so only the last batch's state is needed, and the head changes in
    /// place within the call instead of copying paths for every batch. The last batch written
    /// always carries its state. A stateless batch is committed with the later one
    /// (``Ledger/commitDurable(through:foldingStateless:)``), or, when the ledger fails after
    /// it was durable, by folding its events onto the acknowledged state (the same fold).
    var state: LedgerState?

    /// The people its events forget (P3).
    var forgottenPeople: [PersonID] {
        events.compactMap { event in
            if case .personForgotten(let forgotten) = event.payload { forgotten.personID } else { nil }
        }
    }

    /// Whether its events forget a person (P3).
    var forgetsPeople: Bool { !forgottenPeople.isEmpty }

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

/// How the write pipeline committed batches whose state was dropped (``WrittenBatch/state``);
/// tests read it to know that a path was taken.
package struct WriteStatistics: Sendable, Equatable {
    /// Syncs that made batches durable whose state comes with a later batch not yet durable:
    /// those were left for that batch's commit.
    package var commitsWaitingForState = 0
    /// Batches committed by folding their events (a sync failed after they were durable).
    package var foldedCommits = 0
}
