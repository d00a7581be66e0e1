import Foundation
import DequeModule
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
/// acknowledged, applied to the state that reads see (``readModels``, `read(_:)`, the read
/// side) and published to ``changes`` only once its frame is durable, strictly in sequence order (`commit(_:)`).
/// After a failed sync the ledger is failed: see ``execute(_:)-([Command])``.
///
/// The actor's work is split by concern: opening (Ledger+Open.swift), the write pipeline
/// (Ledger+Write.swift: validate, seal, append, wait, commit), the read side's upkeep
/// (Ledger+ReadSideUpkeep.swift: store writes after durability, observation, rebuild) and
/// maintenance (Ledger+Maintenance.swift: checkpoints, forgetting); this file holds the state
/// they share, the reads of it and `close()`.
public actor Ledger {
    /// The ledger's directory; ``LedgerDirectory`` names what is inside.
    public nonisolated let directory: FilePath
    /// The writer's lock on the ledger folder itself (the journal holds its own on `journal/`);
    /// nil when the opener holds it (``open(at:options:folderLockedByCaller:)``).
    let folderLock: (any FileLock)?
    let journal: Journal
    package nonisolated let options: LedgerOptions
    let broadcaster: ChangeBroadcaster
    /// How the ledger was opened: from which checkpoint, or why by full replay.
    public nonisolated let openReport: LedgerOpenReport
    var isClosed = false
    /// Whether the ledger is a synced device's: it has a sync outbox (``openSyncOutbox()``), and
    /// a command executed on it directly is refused (``LedgerError/syncedLedger(_:)``).
    var isSynced: Bool

    // The write pipeline (Ledger+Write.swift).

    /// The state of every acknowledged (durable) batch: what reads see. A commit takes the
    /// state its batch left (``WrittenBatch/state``), or folds the batch's events when that
    /// state was dropped.
    var current: LedgerState {
        didSet { pendingView = nil }  // a synced device's outbox is executed again on the new state
    }
    /// Validation's state: `current` plus every batch written but not yet acknowledged
    /// (``unacknowledged``), in order; the one fold of each event (``write(_:)``).
    var head: LedgerState
    /// What an undo or redo executed now is validated against (``activity(_:)`` marks entries).
    var validationHead: LedgerState { head }
    /// The chain value after the last acknowledged batch.
    var chainValue: ChainValue
    /// Batches written to the journal, not yet durable, in sequence order (a deque: a sync
    /// commits them from the front).
    var unacknowledged: Deque<WrittenBatch> = []
    /// How the write pipeline committed batches without their own state (``WrittenBatch/state``).
    package internal(set) var writeStatistics = WriteStatistics()
    /// Set when the journal failed a sync (or an append left it failed): every later
    /// `execute` throws it; the state stays as of the last acknowledged batch.
    var failure: JournalError?
    var gate = SerialGate()
    let personalKeys: PersonalKeyRing

    // The read side's upkeep (Ledger+ReadSideUpkeep.swift).

    /// The on-disk read side; rows change only for events the journal made durable.
    let readSide: ReadSide
    /// What committed batches changed since the read side was last written.
    var unstoredChanges = StoreChanges()
    /// Whether a store write is scheduled for a later turn of the actor.
    var storeWriteScheduled = false
    /// The values observed from the store (``observe(_:)``), refreshed off the actor after the
    /// store commits that modified a table they read.
    let refresher: ObservationRefresher
    /// Where the store commits are written, off the actor (``StoreWriteQueue``).
    let storeWriter: StoreWriteQueue
    /// The values observed from the planning view (``observePlanning(_:)``), refreshed on the
    /// actor after each store commit.
    var planningObservations: [UInt64: any ValueObserving<PlanningView>] = [:]
    var nextObservationID: UInt64 = 0

    // A synced device's outbox, shown on top of the acknowledged state (Ledger+Sync.swift).

    /// The commands of a synced device's outbox, in order (``showPending(_:version:from:)``).
    var pendingCommands: [PendingCommand] = []
    /// The version of the outbox ``pendingCommands`` holds, and who numbered it
    /// (``showPending(_:version:from:)``).
    var pendingVersion: (source: UUID?, number: UInt64) = (nil, 0)
    /// ``pendingCommands`` executed on top of ``current``, as far as computed; nil when it must
    /// be made again (``pendingShown()``): every change of ``current`` drops it.
    var pendingView: PendingView?

    // Maintenance: checkpoints and forgetting (Ledger+Maintenance.swift).

    let checkpointWriter: CheckpointWriter
    /// Where the states read the history checkpoints moved to the store.
    var storeHistory: StoreHistory { readSide.history }
    /// The background checkpoint write in progress (at most one): the sequence number it
    /// wrote (nil when a forgetting made its snapshot obsolete) or why it failed.
    var checkpointInFlight: Task<Result<CheckpointWriter.Written?, LedgerError>, Never>?
    /// A commit reached the checkpoint interval while one was being written.
    var checkpointDue = false
    var checkpointedSequenceNumber: UInt64
    /// People whose `PersonForgotten` is recorded but whose key could not be destroyed or whose
    /// texts are still readable in the live state (I/O failure); retried by the next `execute`
    /// and `close`, finished by the next ``open(at:options:)`` at the latest.
    public internal(set) var unfinishedForgetting: Set<PersonID> = []
    /// Checkpoint writes that failed since open (disk full, I/O errors).
    public internal(set) var checkpointFailures = 0

    init(
        directory: FilePath, folderLock: (any FileLock)?, journal: Journal, options: LedgerOptions, folded: FoldedState,
        personalKeys: PersonalKeyRing, readSide: ReadSide, openReport: LedgerOpenReport
    ) {
        self.readSide = readSide
        self.refresher = ObservationRefresher(readSide: readSide)
        self.storeWriter = StoreWriteQueue(readSide: readSide, refresher: refresher)
        self.personalKeys = personalKeys
        self.directory = directory
        self.folderLock = folderLock
        self.journal = journal
        self.options = options
        self.current = folded.state
        self.head = folded.state
        self.chainValue = folded.chainValue
        self.checkpointWriter = CheckpointWriter(
            readSide: readSide, journal: journal, storeWriter: storeWriter, floor: folded.state.lastForgettingSequenceNumber)
        self.checkpointedSequenceNumber = openReport.checkpointSequenceNumber ?? 0
        self.openReport = openReport
        self.isSynced = options.fileSystem.fileExists(at: LedgerDirectory(directory).syncOutbox)
        self.broadcaster = ChangeBroadcaster(bufferLimit: options.changesBufferLimit)
        // A store rebuilt at open under a state restored from its old checkpoint holds that
        // checkpoint without the records the tail changed kept as of it: the first store write
        // replaces it (until then a crash costs the next open a full replay, never a wrong read).
        if case .rebuilt = readSide.status, !folded.isResident, options.checkpointIntervalEvents > 0 { checkpointDue = true }
    }

    deinit { folderLock?.unlock() }  // a ledger dropped without close (the journal unlocks its own)

    /// A snapshot of the validation state after the last acknowledged batch (a value; later
    /// commands do not change it), on a synced device with its outbox on top (``shownState``).
    /// Batches written but not yet durable are not in it, and after a failed sync it stays as of
    /// the last durable batch (G6).
    ///
    /// Package-internal (Docs/Architecture.md, "Public surface"): for the CLI, the interchange
    /// formats and tests; hosts read ``readModels``, `read(_:)`, the queries and ``observe(_:)``.
    /// What the store's history holds of it (the undo history, transactions, transfers,
    /// settlements, group expenses) is read whole (O(history)), so the value stays complete
    /// after the ledger moves on or closes. When the archive cannot be read (the ledger was
    /// closed, a page is damaged), the value is rebuilt from the journal instead of missing
    /// entries (then without a synced device's outbox).
    package var state: LedgerState { completed(shownState) }

    /// `state` with its archived entries read whole, or rebuilt from the journal when the
    /// archive cannot be read (``complete(_:_:)``).
    private func completed(_ state: LedgerState) -> LedgerState {
        state.isResident ? state : complete(state.detached, \.state)
    }

    /// The acknowledged validation state (on a synced device, with its outbox on top:
    /// ``shownState``), its archived maps read on demand: what the subscription queries (R1)
    /// read (the templates are in memory; a history reads one transaction per recorded
    /// occurrence). Falls back to ``state`` as `read(_:)` does.
    var queryState: LedgerState {
        servesArchive ? shownState : state
    }

    /// ``queryState`` without a synced device's outbox: the acknowledged history alone.
    var confirmedQueryState: LedgerState {
        servesArchive ? current : completed(current)
    }

    /// Whether the states' archived maps can be read from the store (the ledger is open and no
    /// read of its history failed); otherwise reads fall back to values rebuilt whole.
    var servesArchive: Bool { !isClosed && storeHistory.failure == nil }

    /// A value whose archived entries were read whole (`detach`), or when the archive cannot be
    /// read (the ledger was closed, a page is damaged), the same value rebuilt from the journal.
    func complete<Value>(_ detach: () -> Value, _ replayedValue: KeyPath<ReplayResult, Value>) -> Value {
        if !isClosed {
            let value = detach()
            if storeHistory.failure == nil { return value }
        }
        let replayed = try? LedgerReplay.replay(
            at: directory, through: current.nextSequenceNumber - 1, encryption: options.encryption, fileSystem: options.fileSystem)
        return replayed?[keyPath: replayedValue] ?? detach()
    }

    /// How many command-history entries and touches the acknowledged state holds in memory
    /// (the rest is in the store's history): what a checkpoint bounds.
    var commandHistoryInMemory: (entries: Int, touches: Int) { current.history.residentCounts }

    /// How many entries of every archived map the acknowledged state and the read models hold
    /// in memory.
    var archivedEntriesInMemory: Int { current.residentEntryCount }

    /// The read models (wallets, debts, budgets, net worth) after the last acknowledged
    /// batch (on a synced device, with its outbox's commands on top: Docs/Sync.md, "Pending on
    /// top"): a value snapshot.
    ///
    /// What grows with history (transactions, transfers, settlements, group expenses) is in the
    /// store's history once a checkpoint wrote it, and is read whole here (O(history)) so
    /// the value stays complete: for tools and exports (like ``auditRead(_:)``, every member's
    /// entries: an audit read, G7). Screens use `read(_:)`,
    /// the read side's queries (``transactions(_:)``, reports) and ``observe(_:)``.
    public var readModels: Projections {
        let models = shownState.readModels
        return models.isResident ? models : complete(models.detached, \.readModels)
    }

    /// Runs `body` with the read models after the last acknowledged batch, on the ledger, and
    /// returns what it computes: what the store's history holds is read only where `body`
    /// asks for it, so all balances, the debts between two people or the open period cost what
    /// they need, not the history (``readModels`` reads it all). `body` must not keep the value:
    /// its archived entries are read as of the ledger's latest checkpoint.
    ///
    /// The read models hold every member's entries: this is the household-admin or audit read
    /// (G7), for tools and tests. A member's screens read ``read(_:)`` with a query made for
    /// them, or the ledger's queries that take a `Viewer`.
    public func auditRead<Value: Sendable, Failure: Error>(
        _ body: @Sendable (Projections) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try body(servedModels)
    }

    /// The read models `read(_:)` passes: the ledger's own, or when the archive cannot be read
    /// (closed, a damaged page) the complete ones.
    var servedModels: Projections {
        servesArchive ? shownState.readModels : readModels
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
        var closeFailure: JournalError?
        do {
            try journal.close()
        } catch {
            closeFailure = error
        }
        if closeFailure == nil { storeDurableChanges() }  // observers get the last batch's value before their sequence ends
        storeWriter.flush()
        await finishObservations()
        storeWriter.flush()  // a read during the wait may have handed over a commit
        readSide.close()
        folderLock?.unlock()
        if let closeFailure { throw .storage(closeFailure) }
    }
}
