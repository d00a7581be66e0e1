import Synchronization
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// Writes the ledger's checkpoints into its store off the actor (DESIGN "Checkpoints ...
/// written off the actor") and keeps them consistent with forgetting (P3).
///
/// The ledger takes a value snapshot of its state on the actor and hands it to ``write(_:)``,
/// which runs in a detached task: evidence first (a journal sync under a relaxed durability
/// policy), then the history rows changed since the last checkpoint and the encoded live state,
/// in one store transaction (``ReadSide/writeCheckpoint(_:version:replacingAll:state:)``). A lock held
/// across each write and across ``removeAll(coveringLessThan:)`` orders them: once a checkpoint
/// older than a forgetting is removed, the floor rises to that forgetting and a write still in
/// flight from an older snapshot is dropped instead of bringing readable texts of a forgotten
/// person back.
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

    init(readSide: ReadSide, journal: Journal, floor: UInt64) {
        self.readSide = readSide
        self.journal = journal
        self.floor = Mutex(floor)
    }

    /// Syncs the journal when the job asks for it, then writes the checkpoint.
    /// - Returns: what was written, or nil when nothing was (the snapshot predates a forgetting
    ///   whose older checkpoints were removed meanwhile, or there is no store).
    /// - Throws: ``LedgerError/storage(_:)``.
    func write(_ job: Job) throws(LedgerError) -> Written? {
        do {
            if job.synchronizesJournal { try journal.synchronize() }
            try journal.verifyFolder()  // a checkpoint into a copy put in the ledger's place would refuse its journal
            return try floor.withLock { floor throws(JournalError) -> Written? in
                guard job.sequenceNumber >= floor else { return nil }
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
