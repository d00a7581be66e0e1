import Synchronization
import TallyStore

/// One observation of a value computed from the read side (``Ledger/observe(_:)``,
/// ``Ledger/observePlanning(_:)``).
protocol StoreObservation: Sendable {
    /// Recomputes the value from `store` (which shows the last committed batch) or `planning`
    /// (the planning view of the same batch) and yields it when it changed.
    /// - Parameter modifiedTables: the tables the commits since the last refresh modified;
    ///   nil when any may have changed (a rebuild). The value is not recomputed when it read
    ///   none of them.
    func refresh(_ store: LedgerStore, modifiedTables: Set<String>?, planning: () -> PlanningView)
    /// Ends the sequence (the ledger closed).
    func finish()
}

/// A value, its last yielded version and the continuation of the sequence that delivers it.
final class ValueObservation<Value: Equatable & Sendable>: StoreObservation {
    private let compute: @Sendable (LedgerStore, () -> PlanningView) throws(LedgerError) -> Value
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation
    private let last = Mutex<Value?>(nil)
    /// What the last computation read: only a commit that modified one of its tables
    /// recomputes the value. Values computed from the planning view depend on everything.
    private let region: Mutex<StoreReadRegion>
    private let readsOnlyTheStore: Bool

    init(_ compute: @escaping @Sendable (LedgerStore, () -> PlanningView) throws(LedgerError) -> Value,
         readsOnlyTheStore: Bool, _ continuation: AsyncThrowingStream<Value, any Error>.Continuation) {
        self.compute = compute
        self.continuation = continuation
        self.readsOnlyTheStore = readsOnlyTheStore
        self.region = Mutex(.everything)
    }

    func refresh(_ store: LedgerStore, modifiedTables: Set<String>?, planning: () -> PlanningView) {
        if let modifiedTables, !region.withLock({ $0 }).isChanged(by: modifiedTables) { return }
        do {
            let value: Value
            if readsOnlyTheStore {
                let recorded = try StoreReadRegion.recording { () throws(LedgerError) -> Value in try compute(store, planning) }
                region.withLock { $0 = recorded.region }
                value = recorded.value
            } else {
                value = try compute(store, planning)
            }
            let changed = last.withLock { last in
                defer { last = value }
                return last != value
            }
            if changed { continuation.yield(value) }
        } catch {
            continuation.finish(throwing: error)
        }
    }

    func finish() { continuation.finish() }
}

extension Ledger {
    /// Observes a value computed from the read-side store, GRDB style: the sequence yields the
    /// current value first, then one value per committed batch that changed it.
    ///
    /// A consumer that is slower than the commits gets the latest value when it asks next: the
    /// values in between are coalesced (the sequence buffers only the newest), so it never
    /// falls behind, never misses the latest value and never fails because of lag. The value is
    /// computed on the ledger after each commit, so keep it to what a screen shows (a page, a
    /// report, the balances). The sequence ends when the ledger closes (after the value of the
    /// last committed batch), and fails (with ``LedgerError/invalidQuery(_:)`` or
    /// ``LedgerError/readSide(_:)``) when the value cannot be computed. Raw committed events
    /// stay available in order from ``changes`` and ``eventCursor(from:through:)``.
    ///
    /// ```swift
    /// let balances = await ledger.observe { store throws(StoreError) in try store.walletBalances() }
    /// for try await wallets in balances { show(wallets) }  // in a task of its own: ends at close
    /// ```
    ///
    /// Swift does not infer a closure's thrown type: a throwing closure says `throws(StoreError)`.
    public func observe<Value: Equatable & Sendable>(
        _ value: @escaping @Sendable (LedgerStore) throws(StoreError) -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        observation(readsOnlyTheStore: true) { store, _ throws(LedgerError) in
            do throws(StoreError) {
                return try value(store)
            } catch .invalidQuery(let reason) {
                throw .invalidQuery(reason)
            } catch {
                throw .readSide(error.description)
            }
        }
    }

    /// Observes a value computed from the planning read models (goals, scenarios, alerts: R2,
    /// R3, R6) like ``observe(_:)``: the current value first, then one per committed batch that
    /// changed it, the values in between coalesced. The view is valid only while the closure runs.
    ///
    /// ```swift
    /// let alerts = await ledger.observePlanning { view throws(LedgerError) in try view.alerts(on: today) }
    /// for try await list in alerts { show(list) }  // each alert's id is stable: notify once per id
    /// ```
    public func observePlanning<Value: Equatable & Sendable>(
        _ value: @escaping @Sendable (PlanningView) throws(LedgerError) -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        observation(readsOnlyTheStore: false) { _, planning throws(LedgerError) in try value(planning()) }
    }

    private func observation<Value: Equatable & Sendable>(
        readsOnlyTheStore: Bool, _ value: @escaping @Sendable (LedgerStore, () -> PlanningView) throws(LedgerError) -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        guard !isClosed else {
            continuation.finish(throwing: LedgerError.closed)
            return stream
        }
        guard let store else {
            continuation.finish(throwing: LedgerError.readSide("the read-side store does not show the ledger's last batch (\(openReport.readSide))"))
            return stream
        }
        let observation = ValueObservation(value, readsOnlyTheStore: readsOnlyTheStore, continuation)
        let id = addObservation(observation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObservation(id) }
        }
        observation.refresh(store, modifiedTables: nil) { planningView(store: store) }
        return stream
    }
}
