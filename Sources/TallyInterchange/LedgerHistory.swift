import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyProjections

/// A read-only view of a ledger directory: every committed event, the engine state and the
/// read models folded from them. Opening it takes no writer lock and never repairs anything;
/// a damaged tail ends the readable prefix (see ``JournalReader``).
public struct LedgerHistory: Sendable {
    /// The ledger's directory (it holds `journal/`).
    public let directory: FilePath
    /// The events, in sequence order.
    public let events: [CommittedEvent]
    /// The engine's state after the last event (names of wallets, categories, people).
    public let state: LedgerState
    /// The read models after the last event.
    public let readModels: Projections
    /// Personal texts of people never forgotten that could not be opened (their key is missing
    /// from `personal-keys`, P2): they read as redacted. 0 for a complete ledger directory.
    public var unreadablePersonalTexts = 0
    /// With `allowingDamage`: the damage that ended the prefix read and records the ledger's
    /// other files prove but the journal lacks (what was dropped). Empty otherwise.
    public var droppedProblems: [JournalProblem] = []

    /// The last sequence number read (0 when the journal is empty).
    public var lastSequenceNumber: UInt64 { events.last?.sequenceNumber ?? 0 }

    /// Reads the journal of the ledger in `directory`.
    ///
    /// - Parameters:
    ///   - through: stop after this sequence number (default: the last).
    ///   - encryption: the keys of an encrypted journal.
    ///   - allowingDamage: read the valid prefix of a damaged journal (``droppedProblems``).
    /// - Throws: ``InterchangeError`` with the journal's code (`journalNotFound`,
    ///   `journalCorrupted` with segment/offset/sequence, `journalShorterThanEvidence`) or the
    ///   codec's code.
    public static func load(
        at directory: FilePath, through: UInt64? = nil, encryption: JournalEncryption? = nil, allowingDamage: Bool = false
    ) throws(InterchangeError) -> LedgerHistory {
        var events: [CommittedEvent] = []
        do throws(LedgerError) {
            let replayed = try LedgerReplay.replay(
                at: directory, through: through, encryption: encryption, allowingDamage: allowingDamage,
                visit: { events.append($0) })
            var history = LedgerHistory(directory: directory, events: events, state: replayed.state, readModels: replayed.readModels)
            history.unreadablePersonalTexts = replayed.unreadablePersonalTexts
            history.droppedProblems = replayed.droppedProblems
            return history
        } catch {
            throw InterchangeError(code: error.code, message: "\(directory.appending(Ledger.journalDirectoryName)): \(error.message)")
        }
    }

    /// Creates a history from already decoded events (for tests and hosts that hold a `Ledger`).
    public init(directory: FilePath, events: [CommittedEvent]) {
        var state = LedgerState()
        var readModels = Projections()
        for committed in events {
            state.apply(committed.event)
            readModels.apply(committed.event, sequenceNumber: committed.sequenceNumber)
        }
        self.init(directory: directory, events: events, state: state, readModels: readModels)
    }

    init(directory: FilePath, events: [CommittedEvent], state: LedgerState, readModels: Projections) {
        self.directory = directory
        self.events = events
        self.state = state
        self.readModels = readModels
    }

    /// A wallet's name, or its id when unknown.
    public func walletName(_ id: WalletID) -> String { state.wallets[id]?.name ?? id.description }

    /// A category's name, or its id when unknown.
    public func categoryName(_ id: CategoryID) -> String { state.categories[id]?.name ?? id.description }

    /// A person's name, or the id when unknown.
    public func personName(_ id: PersonID) -> String { state.people[id]?.name.description ?? id.description }
}
