import Synchronization
import TallyJournal
import TallyModel

/// Writes the ledger's checkpoints off the actor (DESIGN "Checkpoints ... written off the
/// actor") and keeps them consistent with forgetting (P3).
///
/// The ledger takes a value snapshot of its state on the actor and hands it to ``write(_:)``,
/// which runs in a detached task: evidence first (a journal sync under a relaxed durability
/// policy), then encoding and the atomic file write. A lock held across each write and across
/// ``removeAll(coveringLessThan:)`` orders them: once the checkpoints older than a forgetting
/// are removed, the floor rises to that forgetting and a write still in flight from an older
/// snapshot is dropped instead of bringing readable texts of a forgotten person back.
final class CheckpointWriter: Sendable {
    /// What one background write needs: all values, no reference to the actor's state.
    struct Job: Sendable {
        var folded: FoldedState
        var fingerprints: [PersonID: [UInt8]]
        /// Whether the journal must be synced first (the snapshot may cover records that are
        /// written but not yet durable: `.interval` and `.none` durability).
        var synchronizesJournal: Bool

        var sequenceNumber: UInt64 { folded.state.nextSequenceNumber - 1 }
    }

    /// Every checkpoint written from now on must cover at least this sequence number: the last
    /// `PersonForgotten` whose older checkpoints were removed.
    private let floor: Mutex<UInt64>
    let store: CheckpointStore
    private let journal: Journal

    init(store: CheckpointStore, journal: Journal, floor: UInt64) {
        self.store = store
        self.journal = journal
        self.floor = Mutex(floor)
    }

    /// Syncs the journal when the job asks for it, then encodes and writes the checkpoint.
    /// - Returns: the sequence number written, or nil when the snapshot predates a forgetting
    ///   whose older checkpoints were removed meanwhile (nothing written).
    /// - Throws: ``LedgerError/storage(_:)``.
    func write(_ job: Job) throws(LedgerError) -> UInt64? {
        do {
            if job.synchronizesJournal { try journal.synchronize() }
            return try floor.withLock { floor throws(JournalError) -> UInt64? in
                guard job.sequenceNumber >= floor else { return nil }
                try store.write(job.folded.checkpoint(fingerprints: job.fingerprints))
                return job.sequenceNumber
            }
        } catch {
            throw .storage(error)
        }
    }

    /// Removes every checkpoint covering less than `sequenceNumber` (and leftover temporary
    /// files) and refuses older snapshots from now on. Waits for a write in progress.
    func removeAll(coveringLessThan sequenceNumber: UInt64) throws(JournalError) {
        try floor.withLock { floor throws(JournalError) in
            floor = max(floor, sequenceNumber)
            try store.removeAll(coveringLessThan: sequenceNumber)
        }
    }
}
