import Dispatch
import Synchronization
import TallyStore

/// One observed value (``Ledger/observe(_:)``, ``Ledger/observePlanning(_:)``): recomputed
/// from `Input` (the store, or the planning view) after a commit, and yielded when it changed.
protocol ValueObserving<Input>: Sendable {
    associatedtype Input
    /// Recomputes the value from `input`, which shows the last committed batch or a later one,
    /// and yields it when it changed.
    /// - Parameter modifiedTables: the tables the commits since the last refresh modified;
    ///   nil when any may have changed (a rebuild). A value that records what it reads is not
    ///   recomputed when it read none of them.
    func refresh(_ input: Input, modifiedTables: Set<String>?)
    /// Ends the sequence (the ledger closed).
    func finish()
    /// Whether the sequence ended (a computation failed, or ``finish()``): nothing to refresh.
    var isFinished: Bool { get }
}

/// A value, its last yielded version and the continuation of the sequence that delivers it.
final class ValueObservation<Input, Value: Equatable & Sendable>: ValueObserving {
    private let compute: @Sendable (Input) throws -> Value
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation
    private let last = Mutex<Value?>(nil)
    /// What the last computation read: only a commit that modified one of its tables
    /// recomputes the value. Values computed from the planning view depend on everything.
    private let region: Mutex<StoreReadRegion>
    private let recordsRegion: Bool
    private let finished = Mutex(false)

    /// - Parameter recordsRegion: whether `compute` reads only the store, so that the tables
    ///   it reads can be recorded (``StoreReadRegion``).
    init(_ compute: @escaping @Sendable (Input) throws -> Value,
         recordsRegion: Bool, _ continuation: AsyncThrowingStream<Value, any Error>.Continuation) {
        self.compute = compute
        self.continuation = continuation
        self.recordsRegion = recordsRegion
        self.region = Mutex(.everything)
    }

    func refresh(_ input: Input, modifiedTables: Set<String>?) {
        if let modifiedTables, !region.withLock({ $0 }).isChanged(by: modifiedTables) { return }
        do {
            let value: Value
            if recordsRegion {
                let recorded = try StoreReadRegion.recording { () throws -> Value in try compute(input) }
                region.withLock { $0 = recorded.region }
                value = recorded.value
            } else {
                value = try compute(input)
            }
            let changed = last.withLock { last in
                defer { last = value }
                return last != value
            }
            if changed { continuation.yield(value) }
        } catch {
            finished.withLock { $0 = true }
            continuation.finish(throwing: error)
        }
    }

    func finish() {
        finished.withLock { $0 = true }
        continuation.finish()
    }

    var isFinished: Bool { finished.withLock { $0 } }
}

/// Re-runs the observations of the store off the engine's actor (issue 28 item 3): a commit
/// only notes which tables it modified and returns; one background job at a time reads the
/// store (a reader connection, beside the writer) for every observation whose recorded tables
/// were modified, with the union of what the commits it missed modified, so writers never wait
/// for observers and a slow observer coalesces commits instead of falling behind. Planning
/// observations read the engine's memory and stay on the actor.
final class ObservationRefresher: Sendable {
    private struct Work {
        var observations: [UInt64: any ValueObserving<LedgerStore>] = [:]
        /// What the commits not yet refreshed for modified; nil: anything (a rebuild).
        var modifiedTables: Set<String>? = []
        var requested = false
        /// The commit from which on every observation is refreshed whatever the commit modified:
        /// what they show changed without a commit while the store was behind (a synced
        /// device's outbox, shown on the coverage of a commit still queued).
        var everythingThrough: UInt64?
        var draining = false
        /// Who waits for the background job to end (``idle()``, ``finish()``).
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let readSide: ReadSide
    private let work = Mutex(Work())
    /// Where the recomputations run: a thread of Dispatch's, not one of Swift concurrency's
    /// cooperative pool (as many threads as cores), which SQLite's blocking reads would hold while
    /// the actor and the consumers wait for a thread.
    private let queue = DispatchQueue(label: "tally.observation-refresher", qos: .userInitiated)

    init(readSide: ReadSide) { self.readSide = readSide }

    /// Registers `observation` (its first value already yielded) under `id`.
    func add(_ observation: any ValueObserving<LedgerStore>, id: UInt64) {
        work.withLock { $0.observations[id] = observation }
    }

    /// Drops an observation whose consumer went away.
    func remove(_ id: UInt64) {
        _ = work.withLock { $0.observations.removeValue(forKey: id) }
    }

    /// Notes a commit that modified `modifiedTables` (nil: anything) and starts the background
    /// job unless it runs; returns at once.
    /// - Parameter sequenceNumber: the coverage the store shows after the commit.
    func committed(modifiedTables: Set<String>?, through sequenceNumber: UInt64) {
        let start = work.withLock { work -> Bool in
            guard !work.observations.isEmpty else { return false }
            if let target = work.everythingThrough, sequenceNumber >= target {
                work.everythingThrough = nil
                work.modifiedTables = nil
            } else if let modifiedTables, let pending = work.modifiedTables {
                work.modifiedTables = pending.union(modifiedTables)
            } else {
                work.modifiedTables = nil
            }
            work.requested = true
            guard !work.draining else { return false }
            work.draining = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Makes the commit that brings the store to `sequenceNumber` refresh every observation:
    /// what they show changed while the store was behind the engine (a synced device's outbox,
    /// shown on that coverage). Earlier commits refresh what they modified, as always.
    func refreshEverything(through sequenceNumber: UInt64) {
        work.withLock { work in work.everythingThrough = max(work.everythingThrough ?? 0, sequenceNumber) }
    }

    /// Refreshes until no commit is waiting, then wakes whoever waits for it to be idle.
    private func drain() {
        while true {
            let next = work.withLock { work -> (observations: [any ValueObserving<LedgerStore>], tables: Set<String>?)? in
                guard work.requested else {
                    work.draining = false
                    for waiter in work.idleWaiters { waiter.resume() }
                    work.idleWaiters = []
                    return nil
                }
                defer { (work.requested, work.modifiedTables) = (false, []) }
                return (Array(work.observations.values), work.modifiedTables)
            }
            guard let next else { return }
            readSide.withStore { store in
                for observation in next.observations { observation.refresh(store, modifiedTables: next.tables) }
            }
        }
    }

    /// Waits until every commit noted so far is refreshed.
    func idle() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = work.withLock { work -> Bool in
                if work.draining { work.idleWaiters.append(waiter) }
                return !work.draining
            }
            if idle { waiter.resume() }
        }
    }

    /// Waits until every noted commit is refreshed, then ends every sequence (the ledger closed).
    func finish() async {
        await idle()
        let observations = work.withLock { work in
            defer { work.observations = [:] }
            return Array(work.observations.values)
        }
        for observation in observations { observation.finish() }
    }
}

extension Ledger {
    /// Observes a value computed from the read-side store, GRDB style: the sequence yields the
    /// current value first, then one value per committed batch that changed it.
    ///
    /// A consumer that is slower than the commits gets the latest value when it asks next: the
    /// values in between are coalesced (the sequence buffers only the newest), so it never
    /// falls behind, never misses the latest value and never fails because of lag. The first value
    /// is computed on the ledger; the later ones off it, on a reader connection of the store, after
    /// the commits that modified a table the value read (writers do not wait for them; commits
    /// that land meanwhile are coalesced into one recomputation). Keep it to what a screen shows
    /// (a page, a report, the balances). The sequence ends when the ledger closes (after the value of the
    /// last committed batch), and fails (with ``LedgerError/invalidQuery(_:)`` or
    /// ``LedgerError/readSide(_:)``) when the value cannot be computed. Raw committed events
    /// stay available in order from ``changes`` and ``eventCursor(from:through:)``.
    ///
    /// ```swift
    /// let balances = await ledger.observe { db in try db.walletBalances() }
    /// for try await wallets in balances { show(wallets) }  // in a task of its own: ends at close
    /// ```
    ///
    /// The closure is the one `read { db in ... }` takes; an error it throws of its own ends the
    /// sequence with that error.
    public func observe<Value: Equatable & Sendable, Failure: Error>(
        _ value: @escaping @Sendable (LedgerStore) throws(Failure) -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        guard let store = storeForNewObservation(continuation) else { return stream }
        let observation = ValueObservation<LedgerStore, Value>({ store in
            do {
                return try value(store)
            } catch let error as StoreError {
                throw LedgerError(error)
            }
        }, recordsRegion: true, continuation)
        let id = newObservationID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObservation(id) }
        }
        observation.refresh(store, modifiedTables: nil)
        if !observation.isFinished { addStoreObservation(observation, id: id) }  // registered after its first value: no refresh races it
        return stream
    }

    /// Observes a value computed from the planning read models (goals, scenarios, alerts: R2,
    /// R3, R6) like ``observe(_:)``: the current value first, then one per committed batch that
    /// changed it, the values in between coalesced. The view is valid only while the closure runs;
    /// it reads the engine's memory, so these values are computed on the ledger after every commit.
    ///
    /// ```swift
    /// let alerts = await ledger.observePlanning { view throws(LedgerError) in try view.alerts(on: today) }
    /// for try await list in alerts { show(list) }  // each alert's id is stable: notify once per id
    /// ```
    public func observePlanning<Value: Equatable & Sendable>(
        _ value: @escaping @Sendable (PlanningView) throws(LedgerError) -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        guard let store = storeForNewObservation(continuation) else { return stream }
        let observation = ValueObservation<PlanningView, Value>(value, recordsRegion: false, continuation)
        let id = newObservationID()
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObservation(id) }
        }
        observation.refresh(planningView(store: store), modifiedTables: nil)
        if !observation.isFinished { addPlanningObservation(observation, id: id) }
        return stream
    }

    /// The store a new observation starts from, or nil after ending its sequence with why
    /// there is none (the ledger closed; the store does not show the last batch).
    private func storeForNewObservation<Value>(_ continuation: AsyncThrowingStream<Value, any Error>.Continuation) -> LedgerStore? {
        guard !isClosed else {
            continuation.finish(throwing: LedgerError.closed)
            return nil
        }
        guard let store = flushedStore() else {
            continuation.finish(throwing: LedgerError.readSide("the read-side store does not show the ledger's last batch (\(openReport.readSide))"))
            return nil
        }
        return store
    }

}
