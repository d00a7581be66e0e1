import Dispatch
import Synchronization
import TallyStore

/// Writes the read side's commits off the engine's actor: the actor gathers the rows a commit
/// writes (``StoreRows``, cheap: what changed, and the small live tables) and hands them over;
/// a serial Dispatch queue runs the SQLite work (statements, page sealing, the WAL write), then
/// tells the ``ObservationRefresher`` which tables changed. Commands never wait for it. Commits
/// handed over while one is being written are merged into one. A reader that needs the store to
/// show the last commit (``Ledger/flushedStore()``, a planning observation, a forgetting, a rebuild,
/// close) waits for the queue with ``flush()``; an observer blocked in its computation never
/// holds it up (observations run on the refresher's queue).
final class StoreWriteQueue: Sendable {
    private struct Pending {
        var changes: StoreChanges
        var rows: StoreRows
        var coverage: StoreCoverage
    }

    private let readSide: ReadSide
    private let refresher: ObservationRefresher
    /// The commits handed over and not yet taken by the queue, merged.
    private let pending = Mutex<Pending?>(nil)
    private let queue = DispatchQueue(label: "tally.store-writer", qos: .userInitiated)

    init(readSide: ReadSide, refresher: ObservationRefresher) {
        self.readSide = readSide
        self.refresher = refresher
    }

    /// Hands over the commit of `changes` (their rows gathered in `rows`) up to `coverage`;
    /// returns at once.
    func enqueue(_ changes: StoreChanges, rows: StoreRows, coverage: StoreCoverage) {
        let schedules = pending.withLock { pending -> Bool in
            guard var merged = pending else {
                pending = Pending(changes: changes, rows: rows, coverage: coverage)
                return true
            }
            merged.changes.formUnion(changes)
            merged.rows = merged.rows.merging(rows)
            merged.coverage = coverage
            pending = merged
            return false  // the job scheduled for the first one takes it
        }
        if schedules { queue.async { self.writePending() } }
    }

    /// Returns once every commit handed over so far is written (or failed, which marks the
    /// store stale).
    func flush() { queue.sync {} }

    private func writePending() {
        guard let next = pending.withLock({ pending in
            defer { pending = nil }
            return pending
        }) else { return }
        let modified = readSide.commit(next.changes, rows: next.rows, coverage: next.coverage)
        refresher.committed(modifiedTables: modified)
    }
}
