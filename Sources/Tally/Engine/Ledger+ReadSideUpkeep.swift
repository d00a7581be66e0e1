import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// The read side's upkeep: the store's rows gathered after durability, in a later turn of the
/// actor, and written off it (``StoreWriteQueue``); the observations refreshed after it; a
/// rebuild from the journal.
extension Ledger {
    /// Ends every ``observe(_:)`` and ``observePlanning(_:)`` sequence (the ledger closed), the
    /// store's once their refresh of the last commit is done.
    func finishObservations() async {
        for observation in planningObservations.values { observation.finish() }
        planningObservations = [:]
        await refresher.finish()
    }

    /// Writes what committed batches changed to the read side, once the journal has made every
    /// applied event durable: the rows then show exactly a durable prefix of the journal, never
    /// an event a crash could lose (under `.synchronous`, right after each batch; under the other
    /// policies, after the next sync).
    /// Gathers the rows in a later turn of the actor, so that acknowledging a batch never waits
    /// for it; under load one gathering covers every batch committed in between.
    func scheduleStoreWrite() {
        guard !storeWriteScheduled else { return }
        storeWriteScheduled = true
        Task { await self.writeScheduledStore() }
    }

    func writeScheduledStore() {
        storeWriteScheduled = false
        guard !isClosed else { return }
        storeDurableChanges()
        startDueCheckpoint()
    }

    /// Hands what committed batches changed to the store writer (``StoreWriteQueue``): the rows
    /// are gathered here, from the read models as the batches left them, and written off the
    /// actor. A forgetting (it rewrites every note of the forgotten people), a stale store (it
    /// is rebuilt from the read models) and planning observations (they read the store here)
    /// are written here instead, once the writer's earlier commits are done.
    func storeDurableChanges() {
        guard unstoredChanges.eventCount > 0 || unstoredChanges.forgetsPeople else { return }
        if journal.durableSequenceNumber < lastSequenceNumber {
            // Relaxed durability: what waits for the store stays bounded; past a checkpoint
            // interval's worth of events, sync the journal (as a checkpoint does) and write.
            guard unstoredChanges.eventCount >= max(1, options.checkpointIntervalEvents),
                  (try? synchronizeEvidence()) != nil,
                  journal.durableSequenceNumber >= lastSequenceNumber
            else { return }
        }
        let changes = unstoredChanges
        unstoredChanges = StoreChanges()
        guard readSide.hasStore else { return }  // nothing to write: no store to gather rows for
        let snapshot = StoreSnapshot(current)
        let coverage = StoreCoverage(sequenceNumber: lastSequenceNumber, chainValue: chainValue.bytes)
        showPendingOnStore()  // a synced device's outbox, on top of the rows this commit writes
        if !changes.forgetsPeople, planningObservations.isEmpty, !readSide.isStale,
           let rows = try? StoreRows(changes, from: snapshot) {
            // Rows gathered over a history read that failed may lack what they show: the store
            // stays behind instead (the next open catches it up from the journal).
            guard storeHistory.failure == nil else { return }
            // A writer faster than the store waits for it once too much is waiting (memory).
            if storeWriter.enqueue(changes, rows: rows, coverage: coverage) { storeWriter.flush() }
            return
        }
        guard storeHistory.failure == nil else { return }
        storeWriter.flush()
        let generation = readSide.storeGeneration
        let modified = readSide.commit(changes, snapshot: snapshot, coverage: coverage, copiesCheckpoint: !current.isResident)
        refreshObservations(modifiedTables: modified)
        // A store rebuilt from the snapshot holds the old checkpoint without the records of the
        // transactions the failed commits changed kept as of it: a checkpoint now replaces it.
        if readSide.storeGeneration != generation, options.checkpointIntervalEvents > 0 { checkpointDue = true }
    }

    /// When the store shows the last committed batch: hands the tables the commit modified (all
    /// of them when `modifiedTables` is nil) to the refresher, which recomputes the store
    /// observations that read one of them off the actor, and recomputes the planning
    /// observations here.
    func refreshObservations(modifiedTables: Set<String>? = nil) {
        guard let shown = readSide.store(showing: lastSequenceNumber) else { return }
        refresher.committed(modifiedTables: modifiedTables, through: lastSequenceNumber)
        guard !planningObservations.isEmpty else { return }
        let view = planningView(store: shown)
        for observation in planningObservations.values { observation.refresh(view, modifiedTables: nil) }
    }

    /// An id for a new observation, taken before its first value is computed, so that a
    /// consumer that goes away at any time removes it (``removeObservation(_:)``).
    func newObservationID() -> UInt64 {
        nextObservationID += 1
        return nextObservationID
    }

    /// Registers an observation of the store (``observe(_:)``), its first value yielded.
    func addStoreObservation(_ observation: any ValueObserving<LedgerStore>, id: UInt64) {
        refresher.add(observation, id: id)
    }

    /// Registers an observation of the planning view (``observePlanning(_:)``), its first value yielded.
    func addPlanningObservation(_ observation: any ValueObserving<PlanningView>, id: UInt64) {
        planningObservations[id] = observation
    }

    /// Returns once every observation of the store (``observe(_:)``) is recomputed for the
    /// commits through `sequenceNumber` (an ``ExecutedCommand/sequenceNumber``, or
    /// ``lastSequenceNumber``): each has yielded the value that shows them, or had nothing new
    /// to yield. For an app that waits until its screens show its own command; a one-off
    /// `read { db in ... }` needs no wait. A number past the last acknowledged one returns at once.
    public func waitForObservations(through sequenceNumber: UInt64) async {
        guard sequenceNumber <= lastSequenceNumber else { return }
        await observationsRefreshed()
    }

    /// Returns once the store observations are recomputed for every store commit so far.
    package func observationsRefreshed() async {
        storeDurableChanges()
        storeWriter.flush()
        await refresher.idle()
    }

    /// Drops an observation whose consumer went away.
    func removeObservation(_ id: UInt64) {
        refresher.remove(id)
        planningObservations[id] = nil
    }

    /// Rebuilds the read-side store from the journal alone (`tally rebuild`): folds every event
    /// from the first into a new store file, in bounded memory (`StoreRebuild`, Docs/Engine.md
    /// "Read side"), checks that the fold ends where the ledger does, and swaps the new file
    /// in. Writers wait meanwhile.
    /// - Parameter progress: called with (events folded, events in all) now and then.
    /// - Returns: the store's row counts per table afterwards.
    /// - Throws: ``LedgerError/readSide(_:)`` when the ledger keeps no store or it cannot be
    ///   written; journal and codec errors of the fold.
    public func rebuildReadSide(progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws(LedgerError) -> [String: Int] {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { throw .closed }
        await settleUnacknowledged()
        if let failure { throw .storage(failure) }
        await checkpointWritten()  // none lands in the old store after the new one holds its own
        try synchronizeEvidence()  // the store never claims what the journal has not made durable
        storeWriter.flush()  // no commit of the old store lands after the new one
        let reader = try Ledger.reader(of: journal)
        let (last, chainValue) = (lastSequenceNumber, chainValue)
        let counts = try readSide.rebuild { store throws(LedgerError) in
            let coverage = try StoreRebuild.fold(
                reader, through: last, personalTexts: personalKeys, into: store, checkpoint: personalKeys.fingerprints, progress: progress)
            guard coverage == StoreCoverage(sequenceNumber: last, chainValue: chainValue.bytes) else {
                throw .readSide("the journal's fold ends at \(coverage.sequenceNumber), not at the ledger's \(last) with its chain value")
            }
            return coverage
        }
        // The new store holds every key's history as of `last` with a checkpoint there: the
        // states keep only what changes from now on, as after a checkpoint (else the next one
        // writes the touches since the old checkpoint a second time, grouped otherwise).
        checkpointedSequenceNumber = max(checkpointedSequenceNumber, last)
        settleArchivedHistory(written: current, at: last)
        unstoredChanges = StoreChanges()
        refreshObservations()
        return counts
    }

    /// Writes what committed batches changed to the read side now (a write still scheduled, and
    /// the store writer's queue, waited for), then returns the store when it shows exactly the
    /// committed state; `nil` when it does not (the journal has not made the last batch durable
    /// yet, or a write failed) or the ledger keeps none (``LedgerOpenReport/readSide``).
    ///
    /// A method, not a property: it writes. Screens that follow the ledger observe it
    /// (``observe(_:)``), which never waits for a write on the engine's actor.
    public func flushedStore() -> LedgerStore? {
        storeDurableChanges()
        storeWriter.flush()
        return readSide.store(showing: lastSequenceNumber)
    }
}
