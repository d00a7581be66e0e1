import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// The write pipeline: validate against the head, seal and append one frame per batch under the
/// FIFO gate, wait for durability outside it (group commit), then commit in sequence order.
extension Ledger {
    /// Executes one command; see ``execute(_:)-([Command])``.
    @discardableResult
    public func execute(_ command: Command) async throws(LedgerError) -> [EventPosition] {
        try await execute([command])
    }

    /// Validates `commands` in order and writes all their events (with any `PeriodClosed` due,
    /// B6) as one journal frame; returns once the frame is durable (`.synchronous`) or written
    /// (`.interval`, `.none`).
    ///
    /// Validation and the write happen under the ledger's FIFO gate, against the state of
    /// every batch written before (acknowledged or not); the wait for durability happens
    /// outside it, so concurrent calls share one `fdatasync`. A failed sync fails every batch
    /// it covered and leaves the ledger failed: this and every later call throws
    /// ``LedgerError/storage(_:)``, and what reads see stays as of the last acknowledged batch;
    /// open the ledger again (after closing it) to continue.
    ///
    /// - Returns: the position of every new event, in order.
    /// - Throws: ``LedgerError/rejected(_:)`` for the first command that breaks a rule (nothing
    ///   is appended, G6); ``LedgerError/invalidBatch(commandCount:limit:)``;
    ///   ``LedgerError/batchTooLarge(recordCount:limit:)`` when the batch cannot be one journal
    ///   frame (checked before validation, and again as period closes add events);
    ///   ``LedgerError/storage(_:)`` when the write or the sync fails (nothing is
    ///   acknowledged) or the ledger is failed; ``LedgerError/personalKeys(_:)`` when a new
    ///   personal key cannot be written, or the ledger was opened with unreadable personal
    ///   texts (it is read-only then); ``LedgerError/closed``.
    @discardableResult
    public func execute(_ commands: [Command]) async throws(LedgerError) -> [EventPosition] {
        try checkCommandCount(commands.count)
        try options.checkBatchFitsOneFrame(commandCount: commands.count)
        let outcomes = await executeBatches([.commands(commands, texts: nil)])
        precondition(outcomes.count == 1, "one batch has one outcome")
        return try outcomes[0].get()
    }

    /// Executes `commands` in order, **each as its own atomic batch** (its own journal frame),
    /// as that many calls of ``execute(_:)-(Command)`` one after the other would, but with one
    /// wait for durability for all of them: several commands share one `fdatasync`.
    ///
    /// Under the FIFO gate, each command in turn is validated against the state of every batch
    /// written before it, including the earlier commands of this call, and written as its own
    /// frame; a command that breaks a rule is rejected, nothing of it is written, and the next
    /// command is executed. Outside the gate, one wait makes the last written frame durable;
    /// then every written command is acknowledged, in order. Nothing is acknowledged before it
    /// is durable (`.synchronous`); under `.interval` and `.none` each command is acknowledged
    /// once written, as ``execute(_:)-([Command])`` does.
    ///
    /// The call stops at the first command that fails for a reason other than a rule
    /// (``LedgerError/storage(_:)`` when the write fails or the ledger is failed,
    /// ``LedgerError/personalKeys(_:)``, ``LedgerError/batchTooLarge(recordCount:limit:)``,
    /// ``LedgerError/closed``): its failure is the last outcome, and the commands after it are
    /// neither executed nor listed. A failed sync fails every command it covered with
    /// ``LedgerError/storage(_:)`` and leaves the ledger failed (G6, as ``execute(_:)-([Command])``);
    /// a command made durable by an earlier sync stays acknowledged.
    ///
    /// - Parameter commands: 1...``LedgerOptions/commandsPerBatchMax`` commands, in the order
    ///   they are to take effect.
    /// - Returns: one outcome per executed command, in order: the positions of its events, or
    ///   why it was not acknowledged (a rejection carries the rule, with `commandIndex` 0, as
    ///   for a single command). As many outcomes as commands unless the call stopped early.
    /// - Throws: ``LedgerError/invalidBatch(commandCount:limit:)`` for an empty list or one
    ///   longer than ``LedgerOptions/commandsPerBatchMax``; nothing is executed then.
    public func execute(each commands: [Command]) async throws(LedgerError) -> [Result<[EventPosition], LedgerError>] {
        try checkCommandCount(commands.count)
        return await executeBatches(commands.map { .commands([$0], texts: nil) })
    }

    /// Refuses an empty call or one of more than `commandsPerBatchMax` commands.
    func checkCommandCount(_ count: Int) throws(LedgerError) {
        guard count > 0, count <= options.commandsPerBatchMax else {
            throw .invalidBatch(commandCount: count, limit: options.commandsPerBatchMax)
        }
    }

    /// The one execution path: under the gate, writes each batch as its own frame, in order
    /// (a rejected batch writes nothing and the next is executed; any other failure ends the
    /// loop); outside it, one wait for the last written frame, then each written batch is
    /// acknowledged. Under a relaxed policy each batch is committed as soon as it is written.
    /// - Returns: one outcome per batch executed: all of them, or up to and including the first
    ///   that failed for a reason other than a rule.
    func executeBatches(_ batches: [BatchSource]) async -> [Result<[EventPosition], LedgerError>] {
        await enterGate()
        // Each batch's last sequence number and positions, not the batch: its state is dropped
        // once committed, however many batches one call executes.
        var outcomes: [Result<(last: UInt64, positions: [EventPosition])?, LedgerError>] = []
        outcomes.reserveCapacity(batches.count)
        var lastWritten: UInt64?
        do {
            defer { gate.leave() }
            for batch in batches {
                // This call's one wait covers every batch it writes, so the state after the
                // batch it wrote before is needed only when no batch follows it
                // (WrittenBatch.state). Dropped before the write, so that the head changes in
                // place; put back when this write adds no batch.
                // A batch that forgets a person keeps its state: its commit rebuilds the state
                // from it (P3).
                let previous = unacknowledged.indices.last
                let dropsPrevious = lastWritten != nil && previous.map { index in
                    unacknowledged[index].receipt.lastSequenceNumber == lastWritten && !unacknowledged[index].forgetsPeople
                } == true
                if dropsPrevious, let previous { unacknowledged[previous].state = nil }
                var wroteBatch = false
                defer {
                    if dropsPrevious, !wroteBatch, let previous, unacknowledged.indices.contains(previous) {
                        unacknowledged[previous].state = head
                    }
                }
                do throws(LedgerError) {
                    let written = try write(batch)
                    if let written {
                        wroteBatch = true
                        if journal.acknowledgesAfterSync {
                            unacknowledged.append(written)
                        } else {
                            commit(written)  // `.interval` / `.none`: acknowledged once written, as the journal's append
                        }
                        lastWritten = written.receipt.lastSequenceNumber
                    }
                    outcomes.append(.success(written.map { (last: $0.receipt.lastSequenceNumber, positions: $0.positions) }))
                } catch {
                    outcomes.append(.failure(error))
                    guard case .rejected = error else { break }
                }
            }
            if !journal.acknowledgesAfterSync {
                storeDurableChanges()  // writes once a background sync covered everything
                startDueCheckpoint()
            }
        }
        // Outside the gate: the next batches validate and write while these sync, and the
        // journal's leader syncs for all of them at once.
        if journal.acknowledgesAfterSync, let last = lastWritten {
            do {
                try await Ledger.waitUntilDurable(journal, through: last)
                commitDurable(through: max(last, journal.durableSequenceNumber))  // every batch the sync covered
            } catch {
                fail(error)
            }
        }
        return outcomes.map { outcome in
            switch outcome {
            case .failure(let error): .failure(error)
            case .success(nil): .success([])
            case .success(let batch?):
                lastSequenceNumber >= batch.last
                    ? .success(batch.positions)
                    : .failure(.storage(failure ?? .journalFailed(reason: "sync failed")))
            }
        }
    }

    /// Under the gate: validates a batch's commands against ``head`` (or decodes the records
    /// of a confirmed one), seals and writes its events as one frame and applies them to
    /// ``head`` (the one fold of the validation state: the batch carries the state after it to
    /// its commit). Nil when it produces no event.
    func write(_ batch: BatchSource) throws(LedgerError) -> WrittenBatch? {
        let events: [Event]
        let validated: LedgerState?
        let records: [NewRecord]
        switch batch {
        case .commands(let commands, let texts):
            try requireWritable()
            guard !isSynced else {
                throw .syncedLedger("\(directory) is a synced device's ledger (it has \(LedgerDirectory.syncOutboxName)): execute commands through its SyncDevice (`tally sync --push`), which records them in the outbox and pushes them to the server; a command written here directly would never reach the household's other devices")
            }
            if !unfinishedForgetting.isEmpty { completeForgetting([]) }
            do {
                (events, validated) = try validate(commands, texts: texts)
            } catch {
                try requireArchiveReadable()  // a rejection may stem from an entry that could not be read
                throw error
            }
            guard !events.isEmpty else { return nil }
            try requireArchiveReadable()
            records = events.map { Ledger.record(for: $0, sealingWith: personalKeys) }
            try persistNewKeys(for: records)
        case .confirmed(let given, let decoded, let after):
            guard !isClosed else { throw .closed }
            if let failure { throw .storage(failure) }
            guard head.nextSequenceNumber == after + 1 else {
                throw .storage(.journalFailed(reason: "confirmed records to follow \(after) arrived where the ledger ends at \(head.nextSequenceNumber - 1): another append came first; pull again from there"))
            }
            if !unfinishedForgetting.isEmpty { completeForgetting([]) }
            try requireArchiveReadable()
            events = decoded
            guard !events.isEmpty else { return nil }
            do {
                try journal.checkLimits(given)
            } catch {
                throw .storage(error)
            }
            validated = nil
            records = given
        }
        let receipt: AppendReceipt
        do {
            receipt = try journal.write(records)
        } catch {
            throw .storage(error)
        }
        precondition(receipt.firstSequenceNumber == head.nextSequenceNumber, "journal and ledger state disagree on the next sequence number")
        if let validated {
            head = validated
        } else {
            for event in events { head.apply(event) }
        }
        return WrittenBatch(receipt: receipt, events: events, state: head)
    }

    /// Refuses a write (or a push's sealing) to a closed or failed ledger, or one opened with
    /// unreadable texts. P2: new texts of people whose key is missing would get a new key, and
    /// the restored original file would then lose them; such a ledger is for reading only. A
    /// keyless ledger holds no key at all and enters texts only from sealed entries.
    func requireWritable() throws(LedgerError) {
        guard !isClosed else { throw .closed }
        if let failure { throw .storage(failure) }
        guard options.keyless || openReport.unreadablePersonalTexts == 0 else {
            throw .personalKeys("this ledger was opened with \(openReport.unreadablePersonalTexts) unreadable personal text(s) and is read-only; restore \(LedgerDirectory.personalKeysName) and open it again to write")
        }
    }

    /// Validates `commands` against ``head``: their events, and the state after them when it was
    /// computed on a copy (a batch, or period closes first); nil when the one command's events
    /// are to be applied to the head in place after the write.
    /// - Parameter texts: where the commands' texts come from; nil: their own strings (a keyless
    ///   ledger: no text, ``EnteredTexts/replaying(_:)`` of none).
    func validate(_ commands: [Command], texts: EnteredTexts?) throws(LedgerError) -> (events: [Event], state: LedgerState?) {
        let texts = texts ?? (options.keyless ? .replaying([]) : .plain)
        // One command without period closes is validated against the head itself and its
        // events applied in place after the write; a batch (or closes) is validated on a copy
        // of it, which costs a copy of what the batch changes (G6: all or nothing).
        if commands.count == 1, case .ready(let planned) = try CommandExecutor.plan(commands[0], against: head, limits: options.entityLimits, texts: texts) {
            return (planned, nil)
        }
        var executor = CommandExecutor(state: head, limits: options.entityLimits, texts: texts)
        for (index, command) in commands.enumerated() {
            do {
                try executor.execute(command)
            } catch .rejected(var violation) {
                violation.commandIndex = index
                throw .rejected(violation)
            }
            // Period closes add events: stop as soon as the frame cannot hold them.
            let recordsMax = options.journalLimits.recordsPerFrameMax
            guard executor.events.count <= recordsMax else {
                throw .batchTooLarge(recordCount: executor.events.count, limit: recordsMax)
            }
        }
        return (executor.events, executor.state)
    }

    /// Refuses to write (and fails the ledger) once a read of the store's history failed:
    /// what was validated may have missed an entry that exists.
    func requireArchiveReadable() throws(LedgerError) {
        guard let failed = storeHistory.failure else { return }
        let error = JournalError.journalFailed(reason: "the store's history: \(failed); close and open the ledger again")
        if failure == nil { checkpointWriter.abandonCheckpoints() }
        failure = error
        throw .storage(error)
    }

    /// Waits, off the actor, until the journal holds `sequenceNumber` durably; the journal's
    /// first waiter syncs for everyone written before it (group commit).
    @concurrent
    nonisolated static func waitUntilDurable(_ journal: Journal, through sequenceNumber: UInt64) async throws(JournalError) {
        try await journal.waitUntilDurable(sequenceNumber)
    }

    /// Commits, in sequence order, the written batches whose frames are durable through
    /// `sequenceNumber`, up to the last of them that carries its state (``WrittenBatch/state``):
    /// a stateless batch's state is that of its call's later batch, which is written already
    /// and commits it once durable too (its call's own wait is for it). Callers resume from their
    /// sync in any order; the first commits for all.
    /// - Parameter foldingStateless: the ledger fails: every durable batch is committed, those
    ///   left without a later state by folding their events.
    func commitDurable(through sequenceNumber: UInt64, foldingStateless: Bool = false) {
        var durable = 0
        var lastWithState: Int?
        for batch in unacknowledged {
            guard batch.receipt.lastSequenceNumber <= sequenceNumber else { break }
            if batch.state != nil { lastWithState = durable }
            durable += 1
        }
        let run = foldingStateless ? durable : lastWithState.map { $0 + 1 } ?? 0  // the batches to commit
        if run < durable { writeStatistics.commitsWaitingForState += 1 }
        for index in 0..<run {
            // A deque: O(1), however many batches one sync covered.
            commit(unacknowledged.removeFirst(), stateFollows: lastWithState.map { index < $0 } ?? false)
        }
        scheduleStoreWrite()  // after the callers are answered: one store transaction for all that committed meanwhile
    }

    /// The commit step: `batch` is durable (or, under a relaxed policy, written) and is now
    /// acknowledged. Its state (folded with its read models when it was validated) becomes the
    /// one reads see, then a forgetting is completed or a checkpoint scheduled, then the events
    /// are published to ``changes``. Batches arrive here exactly once each, in sequence order.
    /// - Parameter stateFollows: a later batch committed in the same turn carries the state
    ///   after this one too, so a batch without its own leaves ``current`` to it; otherwise
    ///   such a batch's events are folded (only when the ledger fails: ``commitDurable(through:foldingStateless:)``).
    ///   Such a batch leaves the chain value and the checkpoint interval to that batch too, so
    ///   that a checkpoint never pairs the state of one batch with the chain value of another.
    func commit(_ batch: WrittenBatch, stateFollows: Bool = false) {
        let takesLaterState = batch.state == nil && stateFollows
        if let state = batch.state {
            current = state
        } else if !stateFollows {
            for event in batch.events { current.apply(event) }
            writeStatistics.foldedCommits += 1
        }
        precondition(
            takesLaterState || current.nextSequenceNumber == batch.receipt.lastSequenceNumber + 1,
            "batches must be committed in sequence order")
        let committed = batch.committedEvents
        if !takesLaterState { chainValue = batch.receipt.chainValue }
        for event in batch.committedEvents { unstoredChanges.add(event.event, sequenceNumber: event.sequenceNumber) }
        let forgotten = batch.forgottenPeople
        if takesLaterState {
            // A stateless batch never forgets (it keeps its state); the run's last batch checks the interval.
        } else if !forgotten.isEmpty {
            completeForgetting(forgotten)
        } else if options.checkpointIntervalEvents > 0,
           lastSequenceNumber - checkpointedSequenceNumber >= UInt64(options.checkpointIntervalEvents) {
            checkpointDue = true  // started after this run, behind its store commit (writeScheduledStore)
        }
        broadcaster.publish(committed)
    }

    /// A sync failed (G6): every batch durable before it is committed, every other written
    /// batch is dropped, and the ledger refuses further writes. The acknowledged state (`current`)
    /// keeps the last acknowledged batch.
    func fail(_ error: JournalError) {
        commitDurable(through: journal.durableSequenceNumber, foldingStateless: true)
        if failure == nil { failure = error }
        unacknowledged = []
        head = current
    }

    /// Waits for every written batch to be durable and commits it (or fails the ledger).
    func settleUnacknowledged() async {
        guard let last = unacknowledged.last?.receipt.lastSequenceNumber else { return }
        do {
            try await Ledger.waitUntilDurable(journal, through: last)
            commitDurable(through: max(last, journal.durableSequenceNumber))  // every batch the sync covered
        } catch {
            fail(error)
        }
    }

    /// P2: a key is durable before any acknowledged event is sealed with it. A batch the
    /// journal would refuse (frame limits) is refused before the key file is written, and the
    /// keys made for it are dropped, so a refused batch leaves nothing behind. The key file
    /// records the last acknowledged sequence number as evidence (`LedgerEvidence`), so what
    /// it proves must be durable first (under a relaxed durability policy, a sync).
    func persistNewKeys(for records: [NewRecord]) throws(LedgerError) {
        do throws(LedgerError) {
            do {
                if !records.isEmpty { try journal.checkLimits(records) }  // none: keys sealed texts for a push (Ledger+Sync)
            } catch {
                throw .storage(error)
            }
            guard personalKeys.hasUnpersistedKeys else { return }
            do {
                try journal.verifyFolder()  // the key file is written by path: never into a copy in the ledger's place
            } catch {
                throw .storage(error)
            }
            try synchronizeEvidence()
            try personalKeys.persist(acknowledgedThrough: lastSequenceNumber)
        } catch {
            personalKeys.discardUnpersisted()
            throw error
        }
    }

    /// Makes every acknowledged record durable before a file that proves them (a checkpoint,
    /// the key store) is written: a crash must never leave evidence of more than the journal
    /// holds. A no-op under the synchronous policy, where every acknowledged record is durable.
    func synchronizeEvidence() throws(LedgerError) {
        if journal.acknowledgesAfterSync { return }
        do {
            try journal.synchronize()
        } catch {
            throw .storage(error)
        }
    }

    func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            gate.enqueue(waiter)
        }
    }
}
