import Synchronization
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

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
    /// The keys the previous checkpoint wrote again: their versions before it become
    /// unreadable only once the next checkpoint is kept, so they are pruned then too.
    private let rewrittenBefore = Mutex<[ArchiveRow]>([])
    let store: CheckpointStore
    /// Where checkpoints put the command history (nil: inline, in the file).
    let archive: CheckpointArchive?
    private let journal: Journal

    init(store: CheckpointStore, archive: CheckpointArchive?, journal: Journal, floor: UInt64) {
        self.store = store
        self.archive = archive
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
            try journal.verifyFolder()  // a checkpoint by path into a copy put in the ledger's place would refuse its journal
            return try floor.withLock { floor throws(JournalError) -> UInt64? in
                guard job.sequenceNumber >= floor else { return nil }
                guard let archive else {
                    try store.write(job.folded.checkpoint(fingerprints: job.fingerprints))
                    return job.sequenceNumber
                }
                // The rows first, synced: the file that needs them is written after.
                let rows = job.folded.archiveRows
                try Self.archiving { () throws(StoreError) in
                    try archive.write(rows, checkpoint: job.sequenceNumber, chain: job.folded.chainValue.bytes)
                }
                try store.write(job.folded.checkpoint(fingerprints: job.fingerprints, historyArchived: true))
                let kept = try store.names().compactMap(LedgerDirectory.checkpointSequenceNumber(inName:))
                let rewritten = Array(job.folded.rewrittenRows)
                let previous = rewrittenBefore.withLock { previous in
                    defer { previous = rewritten }
                    return previous
                }
                try Self.archiving { () throws(StoreError) in try archive.prune(keysOf: previous + rewritten, keeping: kept) }
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
            if let archive, sequenceNumber > 0 {
                try Self.archiving { () throws(StoreError) in try archive.removeAll(before: sequenceNumber) }
            }
        }
    }

    /// After a read of the archive failed (a damaged page the open did not read): removes every
    /// checkpoint and writes none from now on, so the next open replays the journal and starts
    /// the archive afresh instead of reading the damage again. Both are derived from the
    /// journal, which loses nothing.
    func abandonCheckpoints() {
        try? floor.withLock { floor throws(JournalError) in
            floor = .max
            try store.removeAll(coveringLessThan: .max)
        }
    }

    /// An archive failure as the journal error a checkpoint write reports.
    static func archiving(_ body: () throws(StoreError) -> Void) throws(JournalError) {
        do {
            try body()
        } catch {
            throw .journalFailed(reason: "checkpoint archive: \(error)")
        }
    }
}
