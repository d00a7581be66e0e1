import GRDB

/// What a synced device shows on top of its confirmed rows (Docs/Sync.md, "Pending on top"):
/// the rows its outbox's commands change, from the read models with them applied, on the
/// store's rows as of ``base``.
package struct StoreOverlay: Sendable {
    /// The sequence number of the store's coverage these rows go on top of.
    package let base: UInt64
    /// The rows the pending commands change.
    package let changes: StoreChanges
    /// The read models (and names) with the pending commands applied.
    package let snapshot: StoreSnapshot

    package init(base: UInt64, changes: StoreChanges, snapshot: StoreSnapshot) {
        self.base = base
        self.changes = changes
        self.snapshot = snapshot
    }
}

/// A synced device's pending rows on its reads (Docs/Sync.md, "Pending on top").
///
/// The store holds confirmed history only: its coverage is a position of the journal, which
/// holds the server's records and nothing else. A read that shows the outbox runs on the writer
/// connection, in a transaction that writes the pending rows with the commit's own code
/// (``writeRows(_:from:in:keepsRecords:)``), runs the read, and is rolled back: every query,
/// search, report and observation shows the pending commands exactly as a commit of them would,
/// and nothing of them is ever committed. It costs the pending rows' writes per read, and
/// waits for a commit in progress (reads without pending rows never do).
extension LedgerStore {
    /// How many overlays are kept: one per coverage a read may still find while the commits
    /// queued behind the store's writer land (each for the rows as of its coverage).
    static let overlaysKept = 16

    /// Shows `overlay`'s rows on every later read while the store's coverage is its
    /// ``StoreOverlay/base`` (replacing one made on the same coverage); reads on another
    /// coverage use the overlay made on theirs, if any is kept.
    package func show(_ overlay: StoreOverlay) {
        overlays.withLock { overlays in
            overlays.removeAll { $0.base == overlay.base }
            overlays.append(overlay)
            overlays.sort { $0.base < $1.base }
            if overlays.count > Self.overlaysKept { overlays.removeFirst(overlays.count - Self.overlaysKept) }
        }
    }

    /// Forgets the overlays made on coverages before `sequenceNumber`, which the store has left.
    func dropOverlays(before sequenceNumber: UInt64) {
        overlays.withLock { $0.removeAll { $0.base < sequenceNumber } }
    }

    /// Whether a read may have pending rows to show (an overlay with rows is kept).
    var showsPending: Bool {
        overlays.withLock { overlays in overlays.contains { $0.changes.eventCount > 0 } }
    }

    /// Runs `body` on the rows with the overlay made on the store's coverage written under
    /// them, in a transaction that is rolled back (none made on it: the rows as they are).
    func readShowingPending<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try database.readRollingBack { database in
            let covered = try Int64.fetchOne(database, sql: "SELECT sequence FROM coverage WHERE id = 1").flatMap(UInt64.init(exactly:))
            if let covered, let overlay = overlays.withLock({ $0.first { $0.base == covered } }) {
                _ = try writeRows(overlay.changes, from: overlay.snapshot, in: database, keepsRecords: false)
            }
        } read: { database in
            try body(database)
        }
    }
}
