import SystemPackage
import TallyJournal
import TallyModel
import TallyProjections
import TallyStore

/// A household ledger: the engine's host API (DESIGN "Engine requirements").
///
/// `execute` validates commands against the current state and appends all of their events in
/// one journal frame, or nothing (G6). All mutable engine state lives in this actor; batches are
/// serialized in arrival order by a FIFO gate that is held across the journal append, so
/// concurrent callers never validate against state that is not yet committed. Committed events
/// are published to ``changes`` only after the append returned (durable under the default
/// policy).
public actor Ledger {
    /// The ledger's directory; the journal lives in `<directory>/journal`.
    public nonisolated let directory: FilePath
    private let journal: Journal
    private let options: LedgerOptions
    private let broadcaster: ChangeBroadcaster
    private var current: LedgerState
    private var projections: Projections
    private var chainValue: ChainValue
    private let checkpoints: CheckpointStore
    private let personalKeys: PersonalKeyRing
    private var checkpointedSequenceNumber: UInt64
    /// How the ledger was opened: from which checkpoint, or why by full replay.
    public nonisolated let openReport: LedgerOpenReport
    private var gate = SerialGate()
    /// The on-disk read side; rows change only for events the journal made durable.
    private let readSide: ReadSide
    /// What committed batches changed since the read side was last written.
    private var unstoredChanges = StoreChanges()
    private var isClosed = false

    /// The journal's folder inside a ledger directory.
    public static let journalDirectoryName = "journal"
    /// The checkpoints' folder inside a ledger directory.
    public static let checkpointDirectoryName = "checkpoints"

    private init(
        directory: FilePath, journal: Journal, options: LedgerOptions, folded: FoldedState,
        checkpoints: CheckpointStore, personalKeys: PersonalKeyRing, readSide: ReadSide, openReport: LedgerOpenReport
    ) {
        self.readSide = readSide
        self.personalKeys = personalKeys
        self.directory = directory
        self.journal = journal
        self.options = options
        self.current = folded.state
        self.projections = folded.readModels
        self.chainValue = folded.chainValue
        self.checkpoints = checkpoints
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
        let checkpoints = CheckpointStore(
            directory: directory.appending(checkpointDirectoryName), fileSystem: fileSystem, encryption: options.encryption)
        var journalOptions = options.journalOptions
        journalOptions.evidence = try LedgerEvidence.gather(
            checkpoints: checkpoints,
            keys: try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption, readOnly: true))
        let journal: Journal
        do {
            journal = try Journal.open(
                at: directory.appending(journalDirectoryName), options: journalOptions, fileSystem: fileSystem)
        } catch {
            throw .storage(error)
        }
        do throws(LedgerError) {
            let personalKeys = try PersonalKeyRing.load(
                ledgerDirectory: directory, fileSystem: fileSystem, encryption: options.encryption)
            let reader = try Ledger.reader(of: journal)
            let (start, rejected) = try checkpoints.newestUsable(for: reader, keys: personalKeys)
            var replayed = try LedgerReplay.fold(
                reader, from: start ?? FoldedState(), through: reader.lastSequenceNumber, personalTexts: personalKeys)
            var report = LedgerOpenReport(
                checkpointSequenceNumber: start.map { $0.state.nextSequenceNumber - 1 },
                eventsReplayed: replayed.lastSequenceNumber - (start.map { $0.state.nextSequenceNumber - 1 } ?? 0),
                rejectedCheckpoints: rejected)
            report.journalRecovery = journal.recoveryReport
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
                        "\(count) personal text(s) of \(people), never forgotten, cannot be opened: their keys are missing from \(PersonalKeyRing.fileName). Restore that file from a backup of the ledger directory, or open with opensWithUnreadablePersonalTexts to read them as redacted")
                }
                report.unreadablePersonalTexts = count
            }
            let folded = FoldedState(state: replayed.state, readModels: replayed.readModels, chainValue: replayed.chainValue)
            let readSide = ReadSide.open(
                directory: directory, options: options, folded: folded, personNames: folded.state.personNames,
                reader: reader, keys: personalKeys)
            report.readSide = readSide.status.description
            return Ledger(
                directory: directory, journal: journal, options: options, folded: folded,
                checkpoints: checkpoints, personalKeys: personalKeys, readSide: readSide, openReport: report)
        } catch {
            try? journal.close()
            throw error
        }
    }

    /// A snapshot of the validation state (a value; later commands do not change it).
    public var state: LedgerState { current }

    /// The read models (wallets, debts, budgets, net worth), updated after every committed
    /// batch: a value snapshot.
    public var readModels: Projections { projections }

    /// The last committed sequence number (0 for an empty ledger).
    public var lastSequenceNumber: UInt64 { current.nextSequenceNumber - 1 }

    /// A new stream of every event committed after this call, in sequence order.
    ///
    /// Each subscriber buffers up to ``LedgerOptions/changesBufferLimit`` events; a subscriber
    /// that falls further behind loses the oldest waiting ones (`bufferingNewest`) and sees a
    /// gap in sequence numbers, which it can fill with ``events(from:through:)``. Streams end
    /// when the ledger closes.
    public nonisolated var changes: AsyncStream<CommittedEvent> { broadcaster.subscribe() }

    /// Executes one command; see ``execute(_:)-([Command])``.
    @discardableResult
    public func execute(_ command: Command) async throws(LedgerError) -> [EventPosition] {
        try await execute([command])
    }

    /// Validates `commands` in order and appends all their events (with any `PeriodClosed` due,
    /// B6) in one journal frame; the state changes only after the append returned.
    ///
    /// - Returns: the position of every new event, in order.
    /// - Throws: ``LedgerError/rejected(_:)`` for the first command that breaks a rule (nothing
    ///   is appended, G6); ``LedgerError/invalidBatch(commandCount:limit:)``;
    ///   ``LedgerError/storage(_:)`` when the append fails (nothing is acknowledged);
    ///   ``LedgerError/personalKeys(_:)`` when a new personal key cannot be written, or the
    ///   ledger was opened with unreadable personal texts (it is read-only then);
    ///   ``LedgerError/closed``.
    @discardableResult
    public func execute(_ commands: [Command]) async throws(LedgerError) -> [EventPosition] {
        guard !commands.isEmpty, commands.count <= options.commandsPerBatchMax else {
            throw .invalidBatch(commandCount: commands.count, limit: options.commandsPerBatchMax)
        }
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { throw .closed }
        // P2: new texts of people whose key is missing would get a new key, and the restored
        // original file would then lose them; such a ledger is for reading only.
        guard openReport.unreadablePersonalTexts == 0 else {
            throw .personalKeys("this ledger was opened with \(openReport.unreadablePersonalTexts) unreadable personal text(s) and is read-only; restore personal-keys and open it again to write")
        }
        if !unfinishedForgetting.isEmpty { completeForgetting([]) }
        // One command without period closes is validated against the state itself and its
        // events applied in place after the append; a batch (or closes) is validated on a copy
        // of the state, which costs a copy of what the batch changes (G6: all or nothing).
        let events: [Event]
        var validated: LedgerState?
        if commands.count == 1, case .ready(let planned) = try CommandExecutor.plan(commands[0], against: current) {
            events = planned
        } else {
            var executor = CommandExecutor(state: current)
            for (index, command) in commands.enumerated() {
                do {
                    try executor.execute(command)
                } catch .rejected(var violation) {
                    violation.commandIndex = index
                    throw .rejected(violation)
                }
            }
            events = executor.events
            validated = executor.state
        }
        guard !events.isEmpty else { return [] }
        let records = events.map { Ledger.record(for: $0, sealingWith: personalKeys) }
        try persistNewKeys(for: records)
        let receipt: AppendReceipt
        do {
            receipt = try await journal.append(records)
        } catch {
            throw .storage(error)
        }
        precondition(receipt.firstSequenceNumber == current.nextSequenceNumber, "journal and ledger state disagree on the next sequence number")
        if let validated {
            current = validated
        } else {
            for event in events { current.apply(event) }
        }
        let committed = events.enumerated().map { offset, event in
            CommittedEvent(sequenceNumber: receipt.firstSequenceNumber + UInt64(offset), event: event)
        }
        for event in committed { projections.apply(event.event, sequenceNumber: event.sequenceNumber) }
        chainValue = receipt.chainValue
        for event in events { unstoredChanges.add(event) }
        storeDurableChanges()
        let forgotten = events.compactMap { event -> PersonID? in
            if case .personForgotten(let forgotten) = event.payload { forgotten.personID } else { nil }
        }
        if !forgotten.isEmpty {
            completeForgetting(forgotten)
        } else if options.checkpointIntervalEvents > 0,
           lastSequenceNumber - checkpointedSequenceNumber >= UInt64(options.checkpointIntervalEvents) {
            writeCheckpoint()
        }
        broadcaster.publish(committed)
        return committed.map { EventPosition(sequenceNumber: $0.sequenceNumber, commandID: $0.event.commandID, tag: $0.event.payload.tag) }
    }

    /// The committed events from `start` through `end` (default: the last), decoded from the journal.
    /// - Throws: ``LedgerError/storage(_:)``, ``LedgerError/codec(_:sequenceNumber:)``.
    public func events(from start: UInt64 = 1, through end: UInt64? = nil) throws(LedgerError) -> [CommittedEvent] {
        let last = min(end ?? lastSequenceNumber, lastSequenceNumber)
        var events: [CommittedEvent] = []
        try Ledger.forEachEvent(in: try Ledger.reader(of: journal), from: start, through: last, personalTexts: personalKeys) { committed in
            events.append(committed)
        }
        return events
    }

    /// Syncs and closes the journal, releasing the writer lock, and ends every `changes`
    /// stream. Later calls to `execute` throw ``LedgerError/closed``.
    public func close() async throws(LedgerError) {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { return }
        isClosed = true
        broadcaster.finish()
        if !unfinishedForgetting.isEmpty { completeForgetting([]) }
        if options.checkpointIntervalEvents > 0, lastSequenceNumber > checkpointedSequenceNumber { writeCheckpoint() }
        do {
            try journal.close()
        } catch {
            throw .storage(error)
        }
        storeDurableChanges()
    }

    /// Writes what committed batches changed to the read side, once the journal has made every
    /// applied event durable: the rows then show exactly a durable prefix of the journal, never
    /// an event a crash could lose (under `.synchronous`, right after each batch; under the other
    /// policies, after the next sync).
    private func storeDurableChanges() {
        guard journal.durableSequenceNumber >= lastSequenceNumber else { return }
        readSide.commit(
            unstoredChanges,
            snapshot: StoreSnapshot(readModels: projections, personNames: current.personNames),
            coverage: StoreCoverage(sequenceNumber: lastSequenceNumber, chainValue: chainValue.bytes))
        unstoredChanges = StoreChanges()
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
        let folded = try LedgerReplay.fold(
            try Ledger.reader(of: journal), from: FoldedState(), through: lastSequenceNumber, personalTexts: personalKeys)
        guard folded.lastSequenceNumber == lastSequenceNumber, folded.chainValue == chainValue else {
            throw .readSide("the journal's fold ends at \(folded.lastSequenceNumber), not at the ledger's \(lastSequenceNumber) with its chain value")
        }
        let counts = try readSide.rebuild(
            from: StoreSnapshot(readModels: folded.readModels, personNames: folded.state.personNames),
            coverage: StoreCoverage(sequenceNumber: folded.lastSequenceNumber, chainValue: folded.chainValue.bytes),
            progress: progress)
        unstoredChanges = StoreChanges()
        return counts
    }

    /// The read side when it shows exactly the committed state; `nil` while a write to it is
    /// pending or failed, or when the ledger keeps none (``LedgerOpenReport/readSide``).
    public var store: LedgerStore? {
        guard readSide.isCurrent, unstoredChanges == StoreChanges() else { return nil }
        return readSide.store
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
        if case .synchronous = options.durability { return }
        do {
            try journal.synchronize()
        } catch {
            throw .storage(error)
        }
    }

    /// Writes a checkpoint of the current state. A failure costs only open time later, so it
    /// is not an error of the command that triggered it; the next interval tries again.
    private func writeCheckpoint() {
        guard unfinishedForgetting.isEmpty else { return }  // P3: the state still holds their texts
        let folded = FoldedState(state: current, readModels: projections, chainValue: chainValue)
        do {
            try synchronizeEvidence()
            try checkpoints.write(folded.checkpoint(keys: personalKeys))
            checkpointedSequenceNumber = lastSequenceNumber
        } catch {
            checkpointFailures += 1
        }
    }

    /// P3, after `PersonForgotten` is durable: destroys the keys, rebuilds every state from the
    /// journal so the person's texts read as redacted, removes every older checkpoint (they
    /// hold the texts readable) and writes a fresh one. Until the state is rebuilt no
    /// checkpoint is written; a failure is retried by the next `execute` and `close`, and the
    /// next open finishes it in any case (key still present, or checkpoints older than the
    /// forgetting).
    private func completeForgetting(_ people: some Sequence<PersonID>) {
        unfinishedForgetting.formUnion(people)
        do {
            try personalKeys.forget(unfinishedForgetting)
            let replayed = try LedgerReplay.fold(
                try Ledger.reader(of: journal), from: FoldedState(), through: lastSequenceNumber, personalTexts: personalKeys)
            guard replayed.lastSequenceNumber == lastSequenceNumber, replayed.chainValue == chainValue else { return }
            current = replayed.state
            projections = replayed.readModels
            unstoredChanges.forgetPeople()
            storeDurableChanges()
            try checkpoints.removeAll(coveringLessThan: current.lastForgettingSequenceNumber)
            unfinishedForgetting = []
        } catch {
            return
        }
        if options.checkpointIntervalEvents > 0 { writeCheckpoint() }
    }

    /// People whose `PersonForgotten` is recorded but whose key could not be destroyed or whose
    /// texts are still readable in the live state (I/O failure); retried by the next `execute`
    /// and `close`, finished by the next ``open(at:options:)`` at the latest.
    public private(set) var unfinishedForgetting: Set<PersonID> = []

    /// Checkpoint writes that failed since open (disk full, I/O errors).
    public private(set) var checkpointFailures = 0

    /// Writes a checkpoint now (for example before the app is suspended).
    /// - Throws: ``LedgerError/storage(_:)`` when it cannot be written.
    public func checkpoint() async throws(LedgerError) {
        await enterGate()
        defer { gate.leave() }
        guard !isClosed else { throw .closed }
        if !unfinishedForgetting.isEmpty { completeForgetting([]) }
        guard unfinishedForgetting.isEmpty else {
            throw .personalKeys("forgetting \(unfinishedForgetting.count) person(s) is unfinished (their texts would be written readable); see unfinishedForgetting")
        }
        let folded = FoldedState(state: current, readModels: projections, chainValue: chainValue)
        try synchronizeEvidence()
        do {
            try checkpoints.write(folded.checkpoint(keys: personalKeys))
        } catch {
            throw .storage(error)
        }
        checkpointedSequenceNumber = lastSequenceNumber
    }

    private func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            gate.enqueue(waiter)
        }
    }
}
