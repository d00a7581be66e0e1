import Synchronization
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// Writes the ledger's checkpoints into its store off the actor (DESIGN "Checkpoints ...
/// written off the actor") and keeps them consistent with forgetting (P3).
///
/// The ledger hands the store writer the commits up to the state it checkpoints, then takes a
/// value snapshot of that state on the actor and hands it to ``write(_:)``, which runs on the
/// store writer's queue right after those commits (``StoreWriteQueue/afterCommits(_:)``): the
/// history rows changed since the last checkpoint and the encoded live state, in one store
/// transaction, when the store shows exactly the snapshot's sequence number (the transaction
/// book is the store's `transactions` table, which the commits write: a checkpoint is the state
/// as of the store's own coverage; ``ReadSide/writeCheckpoint(_:version:replacingAll:state:)``).
/// A lock held across each write and across ``removeAll(coveringLessThan:)`` orders them: once
/// a checkpoint older than a forgetting is removed, the floor rises to that forgetting and a
/// write still in flight from an older snapshot is dropped instead of bringing readable texts
/// of a forgotten person back.
final class CheckpointWriter: Sendable {
    /// What one background write needs: all values, no reference to the actor's state.
    struct Job: Sendable {
        var folded: FoldedState
        var fingerprints: [PersonID: [UInt8]]

        var sequenceNumber: UInt64 { folded.state.nextSequenceNumber - 1 }
    }

    /// A checkpoint written: its sequence number, and which store file it went to
    /// (``ReadSide/storeGeneration``).
    struct Written: Sendable {
        var sequenceNumber: UInt64
        var storeGeneration: UInt64
    }

    /// Every checkpoint written from now on must cover at least this sequence number: the last
    /// `PersonForgotten` whose older checkpoints were removed.
    private let floor: Mutex<UInt64>
    let readSide: ReadSide
    private let journal: Journal
    private let storeWriter: StoreWriteQueue

    init(readSide: ReadSide, journal: Journal, storeWriter: StoreWriteQueue, floor: UInt64) {
        self.readSide = readSide
        self.journal = journal
        self.storeWriter = storeWriter
        self.floor = Mutex(floor)
    }

    /// Hands the checkpoint to the store writer's queue now, behind every commit handed to it so
    /// far and before any handed over later (called on the actor, right after the commits up to
    /// the job's state); its outcome arrives on the stream: what was written, or nil when nothing
    /// was (the store does not show exactly the job's sequence number: stale, none; or the
    /// snapshot predates a forgetting whose older checkpoints were removed meanwhile), or
    /// ``LedgerError/storage(_:)``.
    func enqueue(_ job: Job) -> AsyncStream<Result<Written?, LedgerError>> {
        let (outcome, continuation) = AsyncStream.makeStream(of: Result<Written?, LedgerError>.self)
        storeWriter.afterCommits {
            continuation.yield(Result { () throws(LedgerError) -> Written? in try self.writeNow(job) })
            continuation.finish()
        }
        return outcome
    }

    /// ``enqueue(_:)``'s work, on the store writer's queue.
    private func writeNow(_ job: Job) throws(LedgerError) -> Written? {
        do {
            try journal.verifyFolder()  // a checkpoint into a copy put in the ledger's place would refuse its journal
            return try floor.withLock { floor throws(JournalError) -> Written? in
                guard job.sequenceNumber >= floor, readSide.store(showing: job.sequenceNumber) != nil else { return nil }
                let state = job.folded.checkpoint(fingerprints: job.fingerprints).encoded()
                let generation = try Self.storing { () throws(StoreError) in
                    // A state holding its whole history (never settled against the store) writes
                    // it all: what the table held before goes.
                    try readSide.writeCheckpoint(
                        job.folded.archiveRows, version: job.sequenceNumber, replacingAll: job.folded.isResident, state: state)
                }
                return generation.map { Written(sequenceNumber: job.sequenceNumber, storeGeneration: $0) }
            }
        } catch {
            throw .storage(error)
        }
    }

    /// Removes the store's checkpoint when it covers less than `sequenceNumber` (and its
    /// history with it) and refuses older snapshots from now on. Waits for a write in progress.
    func removeAll(coveringLessThan sequenceNumber: UInt64) throws(JournalError) {
        try floor.withLock { floor throws(JournalError) in
            floor = max(floor, sequenceNumber)
            guard sequenceNumber > 0 else { return }
            // One that cannot be read goes too: it may hold the texts.
            if let stored = readSide.storedCheckpoint(), stored.sequenceNumber >= sequenceNumber { return }
            _ = try Self.storing { () throws(StoreError) in try readSide.removeCheckpoint() }
        }
    }

    /// After a read of the store's history failed (a damaged page the open did not read):
    /// writes no checkpoint from now on and removes the store's, so the next open does not
    /// read that history again (it replays; ``ReadSide/abandonCheckpoint()``). Derived from the
    /// journal, which loses nothing.
    func abandonCheckpoints() {
        floor.withLock { $0 = .max }
        readSide.abandonCheckpoint()
    }

    /// A store failure as the journal error a checkpoint write reports.
    static func storing<T>(_ body: () throws(StoreError) -> T) throws(JournalError) -> T {
        do {
            return try body()
        } catch {
            throw .journalFailed(reason: "checkpoint in the read-side store: \(error)")
        }
    }
}
