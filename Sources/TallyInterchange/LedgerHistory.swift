import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyProjections

/// A read-only view of a ledger directory: the read models (and, package-internal, the engine's
/// validation state) folded from every committed event, and the events themselves as a cursor
/// (``eventCursor()``) that reads the journal again one frame at a time, so memory does not
/// grow with history. Opening it takes no writer lock and never repairs anything; a damaged
/// tail ends the readable prefix (see ``JournalReader``).
public struct LedgerHistory: Sendable {
    /// Where the events come from.
    private enum Source: Sendable {
        /// The journal, read again by each cursor through ``lastSequenceNumber``.
        case journal(encryption: JournalEncryption?, allowingDamage: Bool)
        /// Events already in memory (tests).
        case events([CommittedEvent])
        /// An open ledger's cursor, not started: each ``eventCursor()`` reads a copy of it.
        case ledger(LedgerEventCursor)
    }

    /// The ledger's directory (it holds `journal/`).
    public let directory: FilePath
    /// The engine's validation state after the last event (names of wallets, categories,
    /// people): package-internal, for the exporters and the CLI (Docs/Architecture.md, "Public
    /// surface"); hosts read ``readModels`` and the name helpers.
    package let state: LedgerState
    /// The read models after the last event (folded with the state).
    public var readModels: Projections { state.readModels }
    /// The last sequence number read (0 when the journal is empty).
    public let lastSequenceNumber: UInt64
    /// How many events there are (through ``lastSequenceNumber``).
    public let eventCount: Int
    /// Personal texts of people never forgotten that could not be opened (their key is missing
    /// from `personal-keys`, P2): they read as sealed. 0 for a complete ledger directory.
    public var unreadablePersonalTexts = 0
    /// With `allowingDamage`: the damage that ended the prefix read and records the ledger's
    /// other files prove but the journal lacks (what was dropped). Empty otherwise.
    public var droppedProblems: [JournalProblem] = []
    private let source: Source

    /// Reads the journal of the ledger in `directory`, folding it without keeping its events.
    ///
    /// - Parameters:
    ///   - through: stop after this sequence number (default: the last).
    ///   - encryption: the keys of an encrypted journal.
    ///   - allowingDamage: read the valid prefix of a damaged journal (``droppedProblems``).
    /// - Throws: ``InterchangeError`` with the journal's code (`journalNotFound`,
    ///   `journalCorrupted` with segment/offset/sequence, `journalShorterThanEvidence`) or the
    ///   codec's code; `swapInterrupted` or `restoreInProgress` when an interrupted restore or
    ///   reset at `directory` cannot be settled (a committed one is finished first).
    public static func load(
        at directory: FilePath, through: UInt64? = nil, encryption: JournalEncryption? = nil, allowingDamage: Bool = false
    ) throws(InterchangeError) -> LedgerHistory {
        var count = 0
        do throws(LedgerError) {
            let replayed = try LedgerReplay.replay(
                at: directory, through: through, encryption: encryption, allowingDamage: allowingDamage,
                visit: { _ in count += 1 })
            var history = LedgerHistory(
                directory: directory, source: .journal(encryption: encryption, allowingDamage: allowingDamage),
                state: replayed.state,
                lastSequenceNumber: replayed.lastSequenceNumber, eventCount: count)
            history.unreadablePersonalTexts = replayed.unreadablePersonalTexts
            history.droppedProblems = replayed.droppedProblems
            return history
        } catch {
            throw Self.error(error, directory: directory)
        }
    }

    /// Reads the acknowledged events of an open `ledger` through its event cursor, folding them
    /// without keeping them (for a host that holds a `Ledger` and exports from it). The history
    /// ends at the ledger's last acknowledged event when this is called; ``eventCursor()``
    /// reads the same events again from the journal (also after the ledger is closed).
    /// ``unreadablePersonalTexts`` is the ledger's (``LedgerOpenReport/unreadablePersonalTexts``).
    /// - Throws: ``InterchangeError`` with the journal's or the codec's code.
    public static func load(from ledger: Ledger) async throws(InterchangeError) -> LedgerHistory {
        let directory = ledger.directory
        do throws(LedgerError) {
            let start = try await ledger.eventCursor()
            var cursor = start
            var state = LedgerState()
            var count = 0
            var last: UInt64 = 0
            while let committed = try cursor.next() {
                state.apply(committed.event)
                count += 1
                last = committed.sequenceNumber
            }
            var history = LedgerHistory(
                directory: directory, source: .ledger(start), state: state,
                lastSequenceNumber: last, eventCount: count)
            history.unreadablePersonalTexts = ledger.openReport.unreadablePersonalTexts
            return history
        } catch {
            throw Self.error(error, directory: directory)
        }
    }

    /// Creates a history from already decoded events (for tests; a host holding a `Ledger`
    /// uses ``load(from:)``, which does not keep the events).
    public init(directory: FilePath, events: [CommittedEvent]) {
        var state = LedgerState()
        for committed in events { state.apply(committed.event) }
        self.init(
            directory: directory, source: .events(events), state: state,
            lastSequenceNumber: events.last?.sequenceNumber ?? 0, eventCount: events.count)
    }

    private init(
        directory: FilePath, source: Source, state: LedgerState, lastSequenceNumber: UInt64, eventCount: Int
    ) {
        self.directory = directory
        self.source = source
        self.state = state
        self.lastSequenceNumber = lastSequenceNumber
        self.eventCount = eventCount
    }

    /// The events 1 through ``lastSequenceNumber``, in order, read again from the journal one
    /// frame at a time.
    /// - Throws: ``InterchangeError`` when the journal cannot be opened again.
    public func eventCursor() throws(InterchangeError) -> Cursor {
        switch source {
        case .events(let events):
            return Cursor(directory: directory, events: .memory(events, next: 0))
        case .ledger(let start):
            return Cursor(directory: directory, events: .journal(start))
        case .journal(let encryption, let allowingDamage):
            do {
                let cursor = try LedgerReplay.eventCursor(
                    at: directory, through: lastSequenceNumber, encryption: encryption, allowingDamage: allowingDamage)
                return Cursor(directory: directory, events: .journal(cursor))
            } catch {
                throw Self.error(error, directory: directory)
            }
        }
    }

    /// One page of the household's commands, newest first, as ``Ledger/activity(_:)`` answers
    /// it, for a reader without the writer lock (`tally activity`): the undo marks are checked
    /// against the state after ``lastSequenceNumber``; each window of the page is read again
    /// from the journal.
    /// - Throws: ``InterchangeError`` (`invalidQuery` for a page size outside
    ///   1...``ActivityQuery/limitMax``, the journal's and the codec's codes).
    package func activity(_ query: ActivityQuery) throws(InterchangeError) -> ActivityPage {
        do throws(LedgerError) {
            return try ActivityPage.read(query, state: state, through: lastSequenceNumber, confirmedThrough: lastSequenceNumber) { start, end throws(LedgerError) in
                switch source {
                case .events(let events):
                    return events.filter { (start...end).contains($0.sequenceNumber) }
                case .ledger(var cursor):
                    return try cursor.drain().filter { (start...end).contains($0.sequenceNumber) }
                case .journal(let encryption, let allowingDamage):
                    var cursor = try LedgerReplay.eventCursor(
                        at: directory, from: start, through: end, encryption: encryption, allowingDamage: allowingDamage)
                    return try cursor.drain()
                }
            }
        } catch {
            throw Self.error(error, directory: directory)
        }
    }

    /// A history's events, one at a time (``eventCursor()``).
    public struct Cursor: Sendable {
        enum Events: Sendable {
            case journal(LedgerEventCursor)
            case memory([CommittedEvent], next: Int)
        }

        let directory: FilePath
        var events: Events

        /// The next event, or nil after the last one.
        /// - Throws: ``InterchangeError`` naming the journal (damage, I/O, decoding).
        public mutating func next() throws(InterchangeError) -> CommittedEvent? {
            switch events {
            case .memory(let all, let next):
                guard next < all.count else { return nil }
                events = .memory(all, next: next + 1)
                return all[next]
            case .journal(var cursor):
                do {
                    let committed = try cursor.next()
                    events = .journal(cursor)
                    return committed
                } catch {
                    throw LedgerHistory.error(error, directory: directory)
                }
            }
        }
    }

    static func error(_ error: LedgerError, directory: FilePath) -> InterchangeError {
        InterchangeError(code: error.code, message: "\(LedgerDirectory(directory).journal): \(error.message)")
    }

    /// A wallet's name, or its id when unknown.
    public func walletName(_ id: WalletID) -> String { state.wallets[id]?.name ?? id.description }

    /// A category's name, or its id when unknown.
    public func categoryName(_ id: CategoryID) -> String { state.categories[id]?.name ?? id.description }

    /// A person's name, or the id when unknown.
    public func personName(_ id: PersonID) -> String { state.people[id]?.name.description ?? id.description }

    /// The saved CSV import mappings, by name (section 9).
    public var importMappings: [ImportMappingSaved] { state.savedImportMappings }

    /// The invitations `viewer` sees, pending at `time`, or all with their status (H6, Flow US-005).
    public func invitations(at time: Timestamp, visibleTo viewer: Viewer, all: Bool = false) -> [InvitationRow] {
        state.invitations(at: time, visibleTo: viewer, all: all)
    }

    /// The saved views (filters and report templates, Flow US-058) `viewer` sees, by name:
    /// their own and the shared ones (G7).
    public func views(visibleTo viewer: Viewer) -> [ViewSaved] { state.views(visibleTo: viewer) }

    /// The saved view `id` if `viewer` sees it.
    /// - Throws: `LedgerError` `unknownView` for an unknown id or another member's private view.
    public func view(_ id: ViewID, visibleTo viewer: Viewer) throws(LedgerError) -> ViewSaved { try state.view(id, visibleTo: viewer) }
}
