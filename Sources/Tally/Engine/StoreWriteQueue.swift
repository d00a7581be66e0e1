import Dispatch
import Synchronization
import TallyStore

/// Writes the read side's commits off the engine's actor: the actor gathers the rows a commit
/// writes (``StoreRows``, cheap: what changed, and the small live tables) and hands them over;
/// a serial Dispatch queue runs the SQLite work (statements, page sealing, the WAL write), then
/// tells the ``ObservationRefresher`` which tables changed. Commands do not wait for it, unless
/// more than ``pendingEventsMax`` events wait (batches faster than the store: memory). Commits
/// handed over while one is being written are merged into one; a checkpoint runs between them,
/// when the store shows exactly its sequence number (``afterCommits(_:)``). A reader that needs the store to
/// show the last commit (``Ledger/flushedStore()``, a planning observation, a forgetting, a rebuild,
/// close) waits for the queue with ``flush()``; an observer blocked in its computation never
/// holds it up (observations run on the refresher's queue).
final class StoreWriteQueue: Sendable {
    private struct Pending: Sendable {
        var changes: StoreChanges
        var rows: StoreRows
        var coverage: StoreCoverage
    }

    /// What the queue runs, in the order handed over.
    private enum Item: Sendable {
        /// A commit (commits handed over one after another are merged).
        case commit(Pending)
        /// Work that needs the store to show exactly the commits before it (a checkpoint).
        case work(@Sendable () -> Void)
    }

    private let readSide: ReadSide
    private let refresher: ObservationRefresher
    /// What was handed over and not yet taken by the queue, and how many events its commits hold.
    private let pending = Mutex<(items: [Item], events: Int)>(([], 0))
    private let queue = DispatchQueue(label: "tally.store-writer", qos: .userInitiated)

    init(readSide: ReadSide, refresher: ObservationRefresher) {
        self.readSide = readSide
        self.refresher = refresher
    }

    /// How many events' commits may wait for the queue before ``enqueue(_:rows:coverage:)``
    /// asks its caller to wait: the rows waiting are held in memory, so a writer faster than the
    /// store (batches of a thousand commands) would otherwise grow them without bound.
    static let pendingEventsMax = 10_000

    /// Hands over the commit of `changes` (their rows gathered in `rows`) up to `coverage`;
    /// returns at once, merged into the commit waiting before it if there is one (in place:
    /// O(its rows), not O(what waits)).
    /// - Returns: whether more than ``pendingEventsMax`` events now wait: the caller then waits
    ///   for the queue (``flush()``), so memory stays bounded.
    func enqueue(_ changes: StoreChanges, rows: StoreRows, coverage: StoreCoverage) -> Bool {
        hand { state in
            state.events += changes.eventCount
            guard case .commit(var merged)? = state.items.last else {
                state.items.append(.commit(Pending(changes: changes, rows: rows, coverage: coverage)))
                return
            }
            state.items.removeLast()  // the only reference left: merged in place
            merged.changes.formUnion(changes)
            merged.rows.merge(rows)
            merged.coverage = coverage
            state.items.append(.commit(merged))
        }
        return pendingEvents > Self.pendingEventsMax
    }

    /// How many events the commits waiting (not yet taken by the queue) hold.
    var pendingEvents: Int { pending.withLock { $0.events } }

    /// Runs `work` on the queue after every commit handed over so far and before any handed over
    /// later (nothing is merged across it); returns at once.
    func afterCommits(_ work: @escaping @Sendable () -> Void) {
        hand { state in state.items.append(.work(work)) }
    }

    /// Returns once everything handed over so far is done (a commit that failed marks the store
    /// stale).
    func flush() { queue.sync {} }

    /// Changes what is pending with `change`; schedules the queue when nothing was.
    private func hand(_ change: (inout (items: [Item], events: Int)) -> Void) {
        let schedules = pending.withLock { state -> Bool in
            let wasEmpty = state.items.isEmpty
            change(&state)
            return wasEmpty  // else the job scheduled for the first one takes it
        }
        if schedules { queue.async { self.writePending() } }
    }

    private func writePending() {
        let items = pending.withLock { state in
            defer { state = ([], 0) }
            return state.items
        }
        for item in items {
            switch item {
            case .commit(let next):
                let modified = readSide.commit(next.changes, rows: next.rows, coverage: next.coverage)
                refresher.committed(modifiedTables: modified, through: next.coverage.sequenceNumber)
            case .work(let work):
                work()
            }
        }
    }
}
