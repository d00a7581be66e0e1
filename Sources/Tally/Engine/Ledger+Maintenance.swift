import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// Maintenance: checkpoints written in the background and the history they move to the archive; the
/// completion of a forgetting (P3).
extension Ledger {
    /// The snapshot a checkpoint of the acknowledged state is written from, or nil while a
    /// forgetting is unfinished (P3: the state still holds their texts).
    func checkpointJob() -> CheckpointWriter.Job? {
        // A failed archive read may have left the state or the read models short of an entry.
        guard unfinishedForgetting.isEmpty, storeHistory.failure == nil else { return nil }
        return CheckpointWriter.Job(folded: FoldedState(state: current, chainValue: chainValue), fingerprints: personalKeys.fingerprints)
    }

    /// ``checkpointJob()`` once the store writer has every commit up to the acknowledged state:
    /// the journal synced first under a relaxed durability policy (the store shows only what
    /// is durable), so the checkpoint is written right behind the commit that brings the store
    /// to its sequence number.
    /// - Throws: ``LedgerError/storage(_:)`` when the journal cannot be synced.
    func preparedCheckpointJob() throws(LedgerError) -> CheckpointWriter.Job? {
        try synchronizeEvidence()
        storeDurableChanges()
        return checkpointJob()
    }

    /// Asks for a checkpoint of the acknowledged state: it starts now, or when the one being
    /// written ends. A failure costs only open time later, so it is not an error of the command
    /// that triggered it; it is counted in ``checkpointFailures``.
    func scheduleCheckpoint() {
        checkpointDue = true
        startDueCheckpoint()
    }

    /// Starts the checkpoint asked for (``checkpointDue``) unless one is being written (it
    /// starts when that one ends), the last one covers the acknowledged state, or there is no
    /// store to write it into (a ledger without its read side: nothing is prepared, so a
    /// checkpoint that can never be written costs a commit no sync and no snapshot).
    func startDueCheckpoint() {
        guard checkpointDue, checkpointInFlight == nil else { return }
        checkpointDue = false
        guard lastSequenceNumber > checkpointedSequenceNumber, readSide.hasStore, let job = try? preparedCheckpointJob() else { return }
        startCheckpoint(job, countsFailure: true)
    }

    /// Hands `job` to the store writer's queue now (behind the commits handed over so far) and
    /// records the outcome on the actor when it is written.
    @discardableResult
    func startCheckpoint(_ job: CheckpointWriter.Job, countsFailure: Bool) -> Task<Result<CheckpointWriter.Written?, LedgerError>, Never> {
        let written = checkpointWriter.enqueue(job)
        let task = Task.detached { [self] () -> Result<CheckpointWriter.Written?, LedgerError> in
            var outcome: Result<CheckpointWriter.Written?, LedgerError> = .success(nil)
            for await result in written { outcome = result }
            await self.checkpointFinished(outcome, job: job, countsFailure: countsFailure)
            return outcome
        }
        checkpointInFlight = task
        return task
    }

    func checkpointFinished(_ outcome: Result<CheckpointWriter.Written?, LedgerError>, job: CheckpointWriter.Job, countsFailure: Bool) {
        checkpointInFlight = nil
        switch outcome {
        case .success(let written?):
            // A store rebuilt since holds this checkpoint only if it copied it after it was
            // written: the states keep its rows in memory, and the next commit past the
            // interval writes one again.
            if written.storeGeneration == readSide.storeGeneration {
                checkpointedSequenceNumber = max(checkpointedSequenceNumber, written.sequenceNumber)
                if job.folded.state.lastForgettingSequenceNumber == current.lastForgettingSequenceNumber {
                    settleArchivedHistory(written: job.folded.state, at: job.sequenceNumber)
                }
            }
        case .success(nil): break
        case .failure: if countsFailure { checkpointFailures += 1 }
        }
        startDueCheckpoint()
    }

    /// After a checkpoint at `sequenceNumber` wrote `written` (the state as of then) to the
    /// store's history (a checkpoint, or a rebuilt store's): the states in memory keep only
    /// what changed since, and read the rest from the store as of that checkpoint. A
    /// checkpoint's snapshot taken before a forgetting rebuilt the state is not settled against
    /// (its rows are gone): the caller checks.
    func settleArchivedHistory(written: LedgerState, at sequenceNumber: UInt64) {
        storeHistory.advance(to: sequenceNumber)
        current.settle(written: written, reader: storeHistory)
        refoldHead()
    }

    /// Validation's head again after ``current`` was replaced (settled against a checkpoint,
    /// rebuilt by a forgetting): `current` plus the batches written since, each batch that
    /// carried the state after it carrying the new one. Costs a fold of the batches in flight,
    /// not of what the state holds.
    func refoldHead() {
        head = current
        for index in unacknowledged.indices {
            for event in unacknowledged[index].events { head.apply(event) }
            if unacknowledged[index].state != nil { unacknowledged[index].state = head }
        }
    }

    /// P3, after `PersonForgotten` is durable: destroys the keys, rebuilds every state from the
    /// journal so the person's texts read as redacted, removes every older checkpoint (they
    /// hold the texts readable; a background write of an older snapshot is dropped) and
    /// writes a fresh one. Until the state is rebuilt no checkpoint is written; a failure is
    /// retried by the next `execute` and `close`, and the next open finishes it in any case
    /// (key still present, or checkpoints older than the forgetting).
    func completeForgetting(_ people: some Sequence<PersonID>) {
        unfinishedForgetting.formUnion(people)
        do {
            try personalKeys.forget(unfinishedForgetting)
            let replayed = try LedgerReplay.fold(
                try Ledger.reader(of: journal), from: FoldedState(), through: lastSequenceNumber, personalTexts: personalKeys)
            guard replayed.lastSequenceNumber == lastSequenceNumber, replayed.chainValue == chainValue else { return }
            current = replayed.state
            unstoredChanges.forget(unfinishedForgetting)
            storeDurableChanges()
            refoldHead()
            try checkpointWriter.removeAll(coveringLessThan: current.lastForgettingSequenceNumber)
            unfinishedForgetting = []
        } catch {
            return
        }
        if options.checkpointIntervalEvents > 0 { scheduleCheckpoint() }
    }

    /// Writes a checkpoint of the acknowledged state now (for example before the app is
    /// suspended), after any checkpoint already being written. The encoding and the write run
    /// off the actor; commands keep executing meanwhile.
    /// - Throws: ``LedgerError/storage(_:)`` when it cannot be written or the ledger failed;
    ///   ``LedgerError/personalKeys(_:)`` while a forgetting is unfinished;
    ///   ``LedgerError/closed``.
    public func checkpoint() async throws(LedgerError) {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { throw .closed }
        if let failure { throw .storage(failure) }
        await checkpointWritten()
        if !unfinishedForgetting.isEmpty { completeForgetting([]) }
        await checkpointWritten()  // completeForgetting may have started one
        guard let job = try preparedCheckpointJob() else {
            if let failed = storeHistory.failure { throw .storage(.journalFailed(reason: "the store's history: \(failed); close and open the ledger again")) }
            throw .personalKeys("forgetting \(unfinishedForgetting.count) person(s) is unfinished (their texts would be written readable); see unfinishedForgetting")
        }
        if case .failure(let error) = await startCheckpoint(job, countsFailure: false).value { throw error }
    }

    /// Starts the checkpoint a commit asked for, if it waits for its store write's turn, then
    /// waits until no checkpoint is being written (a commit may start one while waiting).
    /// Tests use it to observe a background write's outcome.
    func checkpointWritten() async {
        startDueCheckpoint()
        while let inFlight = checkpointInFlight { _ = await inFlight.value }
    }
}
