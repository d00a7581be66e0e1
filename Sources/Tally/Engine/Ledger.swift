import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// A household ledger: the engine's host API (DESIGN "Engine requirements").
///
/// `execute` validates commands and writes all of their events as one journal frame, or
/// nothing (G6); ``execute(each:)`` executes a list of commands as that many such batches, in
/// order, with one wait for durability for all of them. All mutable engine state lives in this
/// actor. Batches are validated and written in arrival order under a FIFO gate (validation
/// sees every batch written before, durable or not); the gate is left before the wait for
/// durability, so concurrent batches share one `fdatasync` (group commit). A batch is
/// acknowledged, applied to the state that reads see (``readModels``, ``read(_:)``, the read
/// side) and published to ``changes`` only once its frame is durable, strictly in sequence order (`commit(_:)`).
/// After a failed sync the ledger is failed: see ``execute(_:)-([Command])``.
public actor Ledger {
    /// The ledger's directory; ``LedgerDirectory`` names what is inside.
    public nonisolated let directory: FilePath
    let journal: Journal
    let options: LedgerOptions
    let broadcaster: ChangeBroadcaster
    /// The state of every acknowledged (durable) batch: what reads see.
    private var current: LedgerState
    /// Validation's state: `current` plus every batch written but not yet acknowledged
    /// (``unacknowledged``), in order.
    private var head: LedgerState
    /// What an undo or redo executed now is validated against (``activity(_:)`` marks entries).
    var validationHead: LedgerState { head }
    private var projections: Projections
    /// The chain value after the last acknowledged batch.
    private var chainValue: ChainValue
    /// Batches written to the journal, not yet durable, in sequence order.
    private var unacknowledged: [WrittenBatch] = []
    /// Set when the journal failed a sync (or an append left it failed): every later
    /// `execute` throws it; the state stays as of the last acknowledged batch.
    private var failure: JournalError?
    private let checkpoints: CheckpointStore
    private let checkpointWriter: CheckpointWriter
    /// Reads the command history that checkpoints moved to the archive, as of the newest one
    /// the state settled against; nil until a checkpoint wrote one (or without an archive).
    private var archiveReader: ArchiveReader?
    /// The background checkpoint write in progress (at most one): the sequence number it
    /// wrote (nil when a forgetting made its snapshot obsolete) or why it failed.
    private var checkpointInFlight: Task<Result<UInt64?, LedgerError>, Never>?
    /// A commit reached the checkpoint interval while one was being written.
    private var checkpointDue = false
    let personalKeys: PersonalKeyRing
    private var checkpointedSequenceNumber: UInt64
    /// How the ledger was opened: from which checkpoint, or why by full replay.
    public nonisolated let openReport: LedgerOpenReport
    private var gate = SerialGate()
    /// The on-disk read side; rows change only for events the journal made durable.
    private let readSide: ReadSide
    /// What committed batches changed since the read side was last written.
    private var unstoredChanges = StoreChanges()
    /// Whether a store write is scheduled for a later turn of the actor.
    private var storeWriteScheduled = false
    /// The values observed from the store (``observe(_:)``), refreshed off the actor after the
    /// store commits that modified a table they read.
    private let refresher: ObservationRefresher
    /// The values observed from the planning view (``observePlanning(_:)``), refreshed on the
    /// actor after each store commit.
    private var planningObservations: [UInt64: any ValueObserving<PlanningView>] = [:]
    private var nextObservationID: UInt64 = 0
    private(set) var isClosed = false

    private init(
        directory: FilePath, journal: Journal, options: LedgerOptions, folded: FoldedState,
        checkpoints: CheckpointStore, archive: CheckpointArchive?, personalKeys: PersonalKeyRing, readSide: ReadSide,
        openReport: LedgerOpenReport
    ) {
        self.readSide = readSide
        self.refresher = ObservationRefresher(readSide: readSide)
        self.personalKeys = personalKeys
        self.directory = directory
        self.journal = journal
        self.options = options
        self.current = folded.state
        self.head = folded.state
        self.projections = folded.readModels
        self.chainValue = folded.chainValue
        self.checkpoints = checkpoints
        self.checkpointWriter = CheckpointWriter(
            store: checkpoints, archive: archive, journal: journal, floor: folded.state.lastForgettingSequenceNumber)
        self.archiveReader = folded.state.archiveReader
        self.checkpointedSequenceNumber = openReport.checkpointSequenceNumber ?? 0
        self.openReport = openReport
        self.broadcaster = ChangeBroadcaster(bufferLimit: options.changesBufferLimit)
    }

    /// Opens (or creates) the ledger in `directory` and replays its journal into the state.
    ///
    /// - Parameters:
    ///   - directory: the ledger's directory; created when missing and `options.createIfMissing`.
    ///   - options: durability, segment size, file system, limits.
    /// - Returns: the open ledger; it holds the journal's writer lock until ``close()``.
    /// - Throws: ``LedgerError/storage(_:)`` (`journalLocked`, corruption, I/O),
    ///   ``LedgerError/codec(_:sequenceNumber:)`` when a stored event cannot be decoded.
    public static func open(at directory: FilePath, options: LedgerOptions = LedgerOptions()) async throws(LedgerError) -> Ledger {
        let fileSystem = options.fileSystem
        if !fileSystem.fileExists(at: directory) {
            guard options.createIfMissing else { throw .storage(.journalNotFound(directory: directory.string)) }
            do {
                try fileSystem.createDirectory(at: directory)
            } catch {
                throw .storage(JournalError(error, operation: "create directory", path: directory))
            }
        }
        // Evidence first: a journal shorter than what the checkpoints and the key store prove
        // is refused before the journal cuts a tail or creates a first segment.
        // The key file read here, before the lock, is only evidence: a writer that closed in
        // between can only have raised it, so it is a safe lower bound. The ring the ledger
        // uses is read again under the lock.
        let layout = LedgerDirectory(directory)
        let checkpoints = CheckpointStore(
            directory: layout.checkpoints, fileSystem: fileSystem, encryption: options.encryption)
        var journalOptions = options.journalOptions
        journalOptions.evidence = try LedgerEvidence.gather(
            checkpoints: checkpoints,
            keys: try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption, readOnly: true))
        let journal: Journal
        do {
            journal = try Journal.open(
                at: layout.journal, options: journalOptions, fileSystem: fileSystem)
        } catch {
            throw .storage(error)
        }
        var archive: CheckpointArchive?
        do throws(LedgerError) {
            archive = try checkpoints.openArchiveForWriting()  // under the writer lock
            let personalKeys = try PersonalKeyRing.load(
                ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption)
            let reader = try Ledger.reader(of: journal)
            let (start, rejected) = try checkpoints.newestUsable(for: reader, keys: personalKeys, archive: archive)
            var replayed = try LedgerReplay.fold(
                reader, from: start ?? FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
            var report = LedgerOpenReport(
                checkpointSequenceNumber: start.map { $0.state.nextSequenceNumber - 1 },
                eventsReplayed: replayed.lastSequenceNumber - (start.map { $0.state.nextSequenceNumber - 1 } ?? 0),
                rejectedCheckpoints: rejected)
            report.journalRecovery = journal.recoveryReport
            report.removedInterruptedRestore = removeInterruptedRestore(of: layout, fileSystem: fileSystem)
            // P3: a crash or an I/O failure may have cut a forgetting short: the key not
            // destroyed yet, or the checkpoint used (or an older one) holds the texts readable.
            let forgotten = replayed.state.forgottenPeople
            let keyed = forgotten.filter(personalKeys.hasKey)
            let lastForgetting = replayed.state.lastForgettingSequenceNumber
            let checkpointPredatesForgetting = start.map { $0.state.nextSequenceNumber <= lastForgetting } ?? false
            if !keyed.isEmpty || checkpointPredatesForgetting {
                try personalKeys.forget(keyed)
                personalKeys.resetUnopened()
                replayed = try LedgerReplay.fold(reader, from: FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
                report.checkpointSequenceNumber = nil
                report.eventsReplayed = replayed.lastSequenceNumber
                report.forgettingCompleted = forgotten.subtracting(start?.state.forgottenPeople ?? []).union(keyed)
                    .sorted { $0.description < $1.description }
            }
            // The archive keeps only what the state read from it can reach: rows newer than the
            // checkpoint used (left by a newer checkpoint not used, or a journal cut since) go;
            // a state rebuilt by replay holds everything, so the archive starts empty. When that
            // fails, the archive is set aside and the state replayed.
            if let usedArchive = archive {
                do throws(StoreError) {
                    if let reading = replayed.state.archiveReader {
                        try usedArchive.discard(after: reading.sequenceNumber)
                    } else {
                        try usedArchive.removeAll()
                    }
                } catch where !error.isDamage {
                    throw LedgerError.readSide("\(error); nothing was changed, open the ledger again")  // may pass: no file changes
                } catch {
                    // Set aside: a fresh archive starts empty, like the replayed state's history.
                    usedArchive.close()
                    CheckpointArchive.remove(at: checkpoints.archivePath.string)
                    archive = try checkpoints.openArchiveForWriting()
                    if !replayed.state.isResident {
                        report.rejectedCheckpoints.append("\(report.checkpointSequenceNumber.map { LedgerDirectory.checkpointFileName(sequenceNumber: $0) } ?? "checkpoint"): \(LedgerDirectory.checkpointArchiveName) cannot be used: \(error)")
                        replayed = try LedgerReplay.fold(reader, from: FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
                        report.checkpointSequenceNumber = nil
                        report.eventsReplayed = replayed.lastSequenceNumber
                    }
                }
            }
            // Checkpoints older than the last forgetting, and temporary files a crash during a
            // checkpoint write left: only the writer (holding the lock) removes them.
            do {
                try checkpoints.removeAll(coveringLessThan: lastForgetting)
            } catch {
                throw .storage(error)
            }
            let unreadable = personalKeys.unopened
            if !unreadable.isEmpty {
                let count = unreadable.values.reduce(0, +)
                guard options.opensWithUnreadablePersonalTexts else {
                    let people = unreadable.keys.map(\.description).sorted().joined(separator: ", ")
                    throw LedgerError.personalKeys(
                        "\(count) personal text(s) of \(people), never forgotten, cannot be opened: their keys are missing from \(LedgerDirectory.personalKeysName). Restore that file from a backup of the ledger directory, or open with opensWithUnreadablePersonalTexts to read them as redacted")
                }
                report.unreadablePersonalTexts = count
            }
            let folded = FoldedState(state: replayed.state, readModels: replayed.readModels, chainValue: replayed.chainValue)
            let readSide = ReadSide.open(
                directory: directory, options: options, folded: folded, reader: reader, keys: personalKeys,
                forgotten: report.forgettingCompleted)
            report.readSide = readSide.status.description
            return Ledger(
                directory: directory, journal: journal, options: options, folded: folded,
                checkpoints: checkpoints, archive: archive, personalKeys: personalKeys, readSide: readSide, openReport: report)
        } catch {
            archive?.close()
            try? journal.close()
            throw error
        }
    }

    /// A snapshot of the validation state after the last acknowledged batch (a value; later
    /// commands do not change it). Batches written but not yet durable are not in it, and after
    /// a failed sync it stays as of the last durable batch (G6).
    ///
    /// Package-internal (Docs/Architecture.md, "Public surface"): for the CLI, the interchange
    /// formats and tests; hosts read ``readModels``, ``read(_:)``, the queries and ``observe(_:)``.
    /// What the checkpoint archive holds of it (the undo history, transactions, transfers,
    /// settlements, group expenses) is read whole (O(history)), so the value stays complete
    /// after the ledger moves on or closes. When the archive cannot be read (the ledger was
    /// closed, a page is damaged), the value is rebuilt from the journal instead of missing
    /// entries.
    package var state: LedgerState {
        current.isResident ? current : complete(current.detached, \.state)
    }

    /// The acknowledged validation state, its archived maps read on demand: what the
    /// subscription queries (R1) read (the templates are in memory; a history reads one
    /// transaction per recorded occurrence). Falls back to ``state`` as ``read(_:)`` does.
    var queryState: LedgerState {
        isClosed || archiveReader?.failure != nil ? state : current
    }

    /// A value whose archived entries were read whole (`detach`), or when the archive cannot be
    /// read (the ledger was closed, a page is damaged), the same value rebuilt from the journal.
    private func complete<Value>(_ detach: () -> Value, _ replayedValue: KeyPath<ReplayResult, Value>) -> Value {
        if !isClosed {
            let value = detach()
            if archiveReader?.failure == nil { return value }
        }
        let replayed = try? LedgerReplay.replay(
            at: directory, through: current.nextSequenceNumber - 1, encryption: options.encryption, fileSystem: options.fileSystem)
        return replayed?[keyPath: replayedValue] ?? detach()
    }

    /// How many command-history entries and touches the acknowledged state holds in memory
    /// (the rest is in the checkpoint archive): what a checkpoint bounds.
    var commandHistoryInMemory: (entries: Int, touches: Int) { current.history.residentCounts }

    /// How many entries of every archived map the acknowledged state and the read models hold
    /// in memory.
    var archivedEntriesInMemory: Int { current.residentEntryCount + projections.residentEntryCount }

    /// The read models (wallets, debts, budgets, net worth) after the last acknowledged
    /// batch: a value snapshot.
    ///
    /// What grows with history (transactions, transfers, settlements, group expenses) is in the
    /// checkpoint archive once a checkpoint wrote it, and is read whole here (O(history)) so
    /// the value stays complete: for tools and exports. Screens use ``read(_:)``,
    /// the read side's queries (``transactions(_:)``, reports) and ``observe(_:)``.
    public var readModels: Projections {
        projections.isResident ? projections : complete(projections.detached, \.readModels)
    }

    /// Runs `body` with the read models after the last acknowledged batch, on the ledger, and
    /// returns what it computes: what the checkpoint archive holds is read only where `body`
    /// asks for it, so all balances, the debts between two people or the open period cost what
    /// they need, not the history (``readModels`` reads it all). `body` must not keep the value:
    /// its archived entries are read as of the ledger's latest checkpoint.
    public func read<Value: Sendable, Failure: Error>(
        _ body: @Sendable (Projections) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try body(servedModels)
    }

    /// The read models ``read(_:)`` passes: the ledger's own, or when the archive cannot be read
    /// (closed, a damaged page) the complete ones.
    var servedModels: Projections {
        isClosed || archiveReader?.failure != nil ? readModels : projections
    }

    /// The last acknowledged sequence number (0 for an empty ledger).
    public var lastSequenceNumber: UInt64 { current.nextSequenceNumber - 1 }

    /// A new stream of every event committed after this call, in sequence order.
    ///
    /// Each subscriber buffers up to ``LedgerOptions/changesBufferLimit`` events; a subscriber
    /// that falls further behind loses the oldest waiting ones (`bufferingNewest`) and sees a
    /// gap in sequence numbers, which it can fill with ``eventCursor(from:through:)``. Streams
    /// end when the ledger closes.
    public nonisolated var changes: AsyncStream<CommittedEvent> { broadcaster.subscribe() }

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
        let outcomes = await executeBatches([commands])
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
        return await executeBatches(commands.map { [$0] })
    }

    /// Refuses an empty call or one of more than `commandsPerBatchMax` commands.
    private func checkCommandCount(_ count: Int) throws(LedgerError) {
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
    private func executeBatches(_ batches: [[Command]]) async -> [Result<[EventPosition], LedgerError>] {
        await enterGate()
        var outcomes: [Result<WrittenBatch?, LedgerError>] = []
        outcomes.reserveCapacity(batches.count)
        var lastWritten: UInt64?
        do {
            defer { gate.leave() }
            for commands in batches {
                do throws(LedgerError) {
                    let written = try write(commands)
                    if let written {
                        lastWritten = written.receipt.lastSequenceNumber
                        if journal.acknowledgesAfterSync {
                            unacknowledged.append(written)
                        } else {
                            commit(written)  // `.interval` / `.none`: acknowledged once written, as the journal's append
                        }
                    }
                    outcomes.append(.success(written))
                } catch {
                    outcomes.append(.failure(error))
                    guard case .rejected = error else { break }
                }
            }
            if !journal.acknowledgesAfterSync {
                storeDurableChanges()  // writes once a background sync covered everything
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
                lastSequenceNumber >= batch.receipt.lastSequenceNumber
                    ? .success(batch.positions)
                    : .failure(.storage(failure ?? .journalFailed(reason: "sync failed")))
            }
        }
    }

    /// Under the gate: validates `commands` against ``head``, seals and writes their events as
    /// one frame and applies them to ``head``. Nil when they produce no event.
    private func write(_ commands: [Command]) throws(LedgerError) -> WrittenBatch? {
        guard !isClosed else { throw .closed }
        if let failure { throw .storage(failure) }
        // P2: new texts of people whose key is missing would get a new key, and the restored
        // original file would then lose them; such a ledger is for reading only.
        guard openReport.unreadablePersonalTexts == 0 else {
            throw .personalKeys("this ledger was opened with \(openReport.unreadablePersonalTexts) unreadable personal text(s) and is read-only; restore \(LedgerDirectory.personalKeysName) and open it again to write")
        }
        if !unfinishedForgetting.isEmpty { completeForgetting([]) }
        let events: [Event]
        let validated: LedgerState?
        do {
            (events, validated) = try validate(commands)
        } catch {
            try requireArchiveReadable()  // a rejection may stem from an entry that could not be read
            throw error
        }
        guard !events.isEmpty else { return nil }
        try requireArchiveReadable()
        let records = events.map { Ledger.record(for: $0, sealingWith: personalKeys) }
        try persistNewKeys(for: records)
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
        return WrittenBatch(receipt: receipt, events: events)
    }

    /// Validates `commands` against ``head``: their events, and the state after them when it was
    /// computed on a copy (a batch, or period closes first); nil when the one command's events
    /// are to be applied to the head in place after the write.
    private func validate(_ commands: [Command]) throws(LedgerError) -> (events: [Event], state: LedgerState?) {
        // One command without period closes is validated against the head itself and its
        // events applied in place after the write; a batch (or closes) is validated on a copy
        // of it, which costs a copy of what the batch changes (G6: all or nothing).
        if commands.count == 1, case .ready(let planned) = try CommandExecutor.plan(commands[0], against: head) {
            return (planned, nil)
        }
        var executor = CommandExecutor(state: head)
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

    /// Refuses to write (and fails the ledger) once a read of the checkpoint archive failed:
    /// what was validated may have missed an entry that exists.
    private func requireArchiveReadable() throws(LedgerError) {
        guard let failed = archiveReader?.failure else { return }
        let error = JournalError.journalFailed(reason: "checkpoint archive: \(failed); close and open the ledger again")
        if failure == nil { checkpointWriter.abandonCheckpoints() }
        failure = error
        throw .storage(error)
    }

    /// Waits, off the actor, until the journal holds `sequenceNumber` durably; the journal's
    /// first waiter syncs for everyone written before it (group commit).
    @concurrent
    private nonisolated static func waitUntilDurable(_ journal: Journal, through sequenceNumber: UInt64) async throws(JournalError) {
        try await journal.waitUntilDurable(sequenceNumber)
    }

    /// Commits, in sequence order, every written batch whose frame is durable through
    /// `sequenceNumber`. Callers resume from their sync in any order; the first commits for all.
    private func commitDurable(through sequenceNumber: UInt64) {
        while let first = unacknowledged.first, first.receipt.lastSequenceNumber <= sequenceNumber {
            unacknowledged.removeFirst()
            commit(first)
        }
        scheduleStoreWrite()  // after the callers are answered: one store transaction for all that committed meanwhile
    }

    /// The commit step: `batch` is durable (or, under a relaxed policy, written) and is now
    /// acknowledged. Applies it to the state reads see and to the read models, then completes
    /// a forgetting or schedules a checkpoint, then publishes it to ``changes``. Batches
    /// arrive here exactly once each, in sequence order.
    private func commit(_ batch: WrittenBatch) {
        precondition(batch.receipt.firstSequenceNumber == current.nextSequenceNumber, "batches must be committed in sequence order")
        for event in batch.events { current.apply(event) }
        let committed = batch.committedEvents
        for event in committed { projections.apply(event.event, sequenceNumber: event.sequenceNumber) }
        chainValue = batch.receipt.chainValue
        for event in batch.events { unstoredChanges.add(event) }
        let forgotten = batch.events.compactMap { event -> PersonID? in
            if case .personForgotten(let forgotten) = event.payload { forgotten.personID } else { nil }
        }
        if !forgotten.isEmpty {
            completeForgetting(forgotten)
        } else if options.checkpointIntervalEvents > 0,
           lastSequenceNumber - checkpointedSequenceNumber >= UInt64(options.checkpointIntervalEvents) {
            scheduleCheckpoint()
        }
        broadcaster.publish(committed)
    }

    /// A sync failed (G6): every batch durable before it is committed, every other written
    /// batch is dropped, and the ledger refuses further writes. The acknowledged state (`current`)
    /// keeps the last acknowledged batch.
    private func fail(_ error: JournalError) {
        commitDurable(through: journal.durableSequenceNumber)
        if failure == nil { failure = error }
        unacknowledged = []
        head = current
    }

    /// Waits for every written batch to be durable and commits it (or fails the ledger).
    private func settleUnacknowledged() async {
        guard let last = unacknowledged.last?.receipt.lastSequenceNumber else { return }
        do {
            try await Ledger.waitUntilDurable(journal, through: last)
            commitDurable(through: max(last, journal.durableSequenceNumber))  // every batch the sync covered
        } catch {
            fail(error)
        }
    }

    /// Syncs and closes the journal, releasing the writer lock, and ends every `changes`
    /// stream. Batches written before are acknowledged (or failed) first, and a checkpoint
    /// being written is waited for. Every ``observe(_:)`` sequence ends after the value of the
    /// last committed batch (the store is written first). Later calls to `execute` throw
    /// ``LedgerError/closed``.
    /// - Throws: ``LedgerError/storage(_:)`` when the final sync fails or the ledger failed.
    public func close() async throws(LedgerError) {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { return }
        await settleUnacknowledged()
        isClosed = true
        broadcaster.finish()
        await checkpointWritten()
        try? requireArchiveReadable()  // a read failed since the last command: no checkpoint of it
        if failure == nil {
            if !unfinishedForgetting.isEmpty { completeForgetting([]) }
            await checkpointWritten()
            if options.checkpointIntervalEvents > 0, lastSequenceNumber > checkpointedSequenceNumber {
                scheduleCheckpoint()
                await checkpointWritten()
            }
        }
        do {
            try journal.close()
        } catch {
            await finishObservations()
            readSide.close()
            checkpointWriter.archive?.close()
            throw .storage(error)
        }
        storeDurableChanges()  // observers get the last batch's value before their sequence ends
        await finishObservations()
        readSide.close()
        checkpointWriter.archive?.close()
    }

    /// Ends every ``observe(_:)`` and ``observePlanning(_:)`` sequence (the ledger closed), the
    /// store's once their refresh of the last commit is done.
    private func finishObservations() async {
        for observation in planningObservations.values { observation.finish() }
        planningObservations = [:]
        await refresher.finish()
    }

    /// Writes what committed batches changed to the read side, once the journal has made every
    /// applied event durable: the rows then show exactly a durable prefix of the journal, never
    /// an event a crash could lose (under `.synchronous`, right after each batch; under the other
    /// policies, after the next sync).
    /// Writes the store in a later turn of the actor, so that acknowledging a batch never waits
    /// for SQLite; under load one write covers every batch committed in between.
    private func scheduleStoreWrite() {
        guard !storeWriteScheduled else { return }
        storeWriteScheduled = true
        Task { await self.writeScheduledStore() }
    }

    private func writeScheduledStore() {
        storeWriteScheduled = false
        if !isClosed { storeDurableChanges() }
    }

    private func storeDurableChanges() {
        guard unstoredChanges.eventCount > 0 || unstoredChanges.forgetsPeople else { return }
        if journal.durableSequenceNumber < lastSequenceNumber {
            // Relaxed durability: what waits for the store stays bounded; past a checkpoint
            // interval's worth of events, sync the journal (as a checkpoint does) and write.
            guard unstoredChanges.eventCount >= max(1, options.checkpointIntervalEvents),
                  (try? synchronizeEvidence()) != nil,
                  journal.durableSequenceNumber >= lastSequenceNumber
            else { return }
        }
        let modified = readSide.commit(
            unstoredChanges,
            snapshot: StoreSnapshot(current, projections),
            coverage: StoreCoverage(sequenceNumber: lastSequenceNumber, chainValue: chainValue.bytes))
        unstoredChanges = StoreChanges()
        refreshObservations(modifiedTables: modified)
    }

    /// Recomputes the observed values that read a table the commit modified (all of them when
    /// `modifiedTables` is nil), when the store shows the last committed batch.
    private func refreshObservations(modifiedTables: Set<String>? = nil) {
        guard let shown = readSide.store(showing: lastSequenceNumber) else { return }
        refresher.committed(modifiedTables: modifiedTables)
        guard !planningObservations.isEmpty else { return }
        let view = planningView(store: shown)
        for observation in planningObservations.values { observation.refresh(view, modifiedTables: nil) }
    }

    /// Registers an observation of the store (``observe(_:)``), its first value yielded; returns its id.
    func addStoreObservation(_ observation: any ValueObserving<LedgerStore>) -> UInt64 {
        nextObservationID += 1
        refresher.add(observation, id: nextObservationID)
        return nextObservationID
    }

    /// Registers an observation of the planning view (``observePlanning(_:)``); returns its id.
    func addPlanningObservation(_ observation: any ValueObserving<PlanningView>) -> UInt64 {
        nextObservationID += 1
        planningObservations[nextObservationID] = observation
        return nextObservationID
    }

    /// Returns once the store observations are recomputed for every store commit so far (tests).
    package func observationsRefreshed() async {
        storeDurableChanges()
        await refresher.idle()
    }

    /// Drops an observation whose consumer went away.
    func removeObservation(_ id: UInt64) {
        refresher.remove(id)
        planningObservations[id] = nil
    }

    /// Rebuilds the read-side store from the journal alone (`tally rebuild`): folds every event
    /// from the first, checks that the fold ends where the ledger does, and replaces every row.
    /// Writers wait meanwhile.
    /// - Parameter progress: called with (rows written, rows in all) now and then.
    /// - Returns: the store's row counts per table afterwards.
    /// - Throws: ``LedgerError/readSide(_:)`` when the ledger keeps no store or it cannot be
    ///   written; journal and codec errors of the fold.
    public func rebuildReadSide(progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws(LedgerError) -> [String: Int] {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { throw .closed }
        await settleUnacknowledged()
        if let failure { throw .storage(failure) }
        try synchronizeEvidence()  // the store never claims what the journal has not made durable
        let folded = try LedgerReplay.fold(
            try Ledger.reader(of: journal), from: FoldedState(), through: lastSequenceNumber, personalTexts: personalKeys)
        guard folded.lastSequenceNumber == lastSequenceNumber, folded.chainValue == chainValue else {
            throw .readSide("the journal's fold ends at \(folded.lastSequenceNumber), not at the ledger's \(lastSequenceNumber) with its chain value")
        }
        let counts = try readSide.rebuild(
            from: StoreSnapshot(folded.state, folded.readModels),
            coverage: StoreCoverage(sequenceNumber: folded.lastSequenceNumber, chainValue: folded.chainValue.bytes),
            progress: progress)
        unstoredChanges = StoreChanges()
        refreshObservations()
        return counts
    }

    /// The read side when it shows exactly the committed state; `nil` while a write to it is
    /// pending or failed, or when the ledger keeps none (``LedgerOpenReport/readSide``).
    public var store: LedgerStore? {
        storeDurableChanges()  // a scheduled write not run yet is done now
        return readSide.store(showing: lastSequenceNumber)
    }

    /// P2: a key is durable before any acknowledged event is sealed with it. A batch the
    /// journal would refuse (frame limits) is refused before the key file is written, and the
    /// keys made for it are dropped, so a refused batch leaves nothing behind. The key file
    /// records the last acknowledged sequence number as evidence (`LedgerEvidence`), so what
    /// it proves must be durable first (under a relaxed durability policy, a sync).
    private func persistNewKeys(for records: [NewRecord]) throws(LedgerError) {
        do throws(LedgerError) {
            do {
                try journal.checkLimits(records)
            } catch {
                throw .storage(error)
            }
            guard personalKeys.hasUnpersistedKeys else { return }
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
    private func synchronizeEvidence() throws(LedgerError) {
        if journal.acknowledgesAfterSync { return }
        do {
            try journal.synchronize()
        } catch {
            throw .storage(error)
        }
    }

    /// The snapshot a checkpoint of the acknowledged state is written from, or nil while a
    /// forgetting is unfinished (P3: the state still holds their texts).
    private func checkpointJob() -> CheckpointWriter.Job? {
        // A failed archive read may have left the state or the read models short of an entry.
        guard unfinishedForgetting.isEmpty, archiveReader?.failure == nil else { return nil }
        return CheckpointWriter.Job(
            folded: FoldedState(state: current, readModels: projections, chainValue: chainValue),
            fingerprints: personalKeys.fingerprints, synchronizesJournal: !journal.acknowledgesAfterSync)
    }

    /// Starts writing a checkpoint of the acknowledged state in the background, unless one is
    /// being written already (the next commit past the interval tries again). A failure costs
    /// only open time later, so it is not an error of the command that triggered it; it is
    /// counted in ``checkpointFailures``.
    private func scheduleCheckpoint() {
        guard checkpointInFlight == nil else {
            checkpointDue = true  // started with the then-current state when this one ends
            return
        }
        guard let job = checkpointJob() else { return }
        startCheckpoint(job, countsFailure: true)
    }

    /// Writes `job` in a detached task and records the outcome on the actor when it ends.
    @discardableResult
    private func startCheckpoint(_ job: CheckpointWriter.Job, countsFailure: Bool) -> Task<Result<UInt64?, LedgerError>, Never> {
        let writer = checkpointWriter
        let task = Task.detached { [self] () -> Result<UInt64?, LedgerError> in
            let outcome: Result<UInt64?, LedgerError>
            do throws(LedgerError) {
                outcome = .success(try writer.write(job))
            } catch {
                outcome = .failure(error)
            }
            await self.checkpointFinished(outcome, job: job, countsFailure: countsFailure)
            return outcome
        }
        checkpointInFlight = task
        return task
    }

    private func checkpointFinished(_ outcome: Result<UInt64?, LedgerError>, job: CheckpointWriter.Job, countsFailure: Bool) {
        checkpointInFlight = nil
        switch outcome {
        case .success(let written?):
            checkpointedSequenceNumber = max(checkpointedSequenceNumber, written)
            settleArchivedHistory(written: job)
        case .success(nil): break
        case .failure: if countsFailure { checkpointFailures += 1 }
        }
        if checkpointDue {
            checkpointDue = false
            if options.checkpointIntervalEvents > 0, lastSequenceNumber > checkpointedSequenceNumber { scheduleCheckpoint() }
        }
    }

    /// After `job`'s checkpoint wrote the command history to the archive: the states in memory
    /// keep only what changed since, and read the rest from the archive as of that checkpoint.
    /// Skipped when a forgetting rebuilt the state since the snapshot (its rows are gone).
    private func settleArchivedHistory(written job: CheckpointWriter.Job) {
        guard let archive = checkpointWriter.archive,
              job.folded.state.lastForgettingSequenceNumber == current.lastForgettingSequenceNumber
        else { return }
        let reader = archiveReader ?? ArchiveReader(archive: archive, asOf: job.sequenceNumber)
        reader.sequenceNumber = max(reader.sequenceNumber, job.sequenceNumber)
        archiveReader = reader
        current.settle(written: job.folded.state, reader: reader)
        head.settle(written: job.folded.state, reader: reader)
        projections.settle(written: job.folded.readModels, reader: reader)
    }

    /// P3, after `PersonForgotten` is durable: destroys the keys, rebuilds every state from the
    /// journal so the person's texts read as redacted, removes every older checkpoint (they
    /// hold the texts readable; a background write of an older snapshot is dropped) and
    /// writes a fresh one. Until the state is rebuilt no checkpoint is written; a failure is
    /// retried by the next `execute` and `close`, and the next open finishes it in any case
    /// (key still present, or checkpoints older than the forgetting).
    private func completeForgetting(_ people: some Sequence<PersonID>) {
        unfinishedForgetting.formUnion(people)
        do {
            try personalKeys.forget(unfinishedForgetting)
            let replayed = try LedgerReplay.fold(
                try Ledger.reader(of: journal), from: FoldedState(), through: lastSequenceNumber, personalTexts: personalKeys)
            guard replayed.lastSequenceNumber == lastSequenceNumber, replayed.chainValue == chainValue else { return }
            current = replayed.state
            projections = replayed.readModels
            unstoredChanges.forget(unfinishedForgetting)
            storeDurableChanges()
            // Validation's head: the rebuilt state plus the batches written since.
            head = current
            for batch in unacknowledged {
                for event in batch.events { head.apply(event) }
            }
            try checkpointWriter.removeAll(coveringLessThan: current.lastForgettingSequenceNumber)
            unfinishedForgetting = []
        } catch {
            return
        }
        if options.checkpointIntervalEvents > 0 { scheduleCheckpoint() }
    }

    /// People whose `PersonForgotten` is recorded but whose key could not be destroyed or whose
    /// texts are still readable in the live state (I/O failure); retried by the next `execute`
    /// and `close`, finished by the next ``open(at:options:)`` at the latest.
    public private(set) var unfinishedForgetting: Set<PersonID> = []

    /// Checkpoint writes that failed since open (disk full, I/O errors).
    public private(set) var checkpointFailures = 0

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
        guard let job = checkpointJob() else {
            throw .personalKeys("forgetting \(unfinishedForgetting.count) person(s) is unfinished (their texts would be written readable); see unfinishedForgetting")
        }
        if case .failure(let error) = await startCheckpoint(job, countsFailure: false).value { throw error }
    }

    /// Waits until no checkpoint is being written (a commit may start one while waiting).
    /// Tests use it to observe a background write's outcome.
    func checkpointWritten() async {
        while let inFlight = checkpointInFlight { _ = await inFlight.value }
    }

    private func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            gate.enqueue(waiter)
        }
    }
}
