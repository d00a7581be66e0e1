import Foundation

/// One measurement in a fresh child process: the coordinator re-invokes this executable as
/// `tally-scale child '<request JSON>'`, and the child prints its figures as one line
/// `FIGURES {...}` on stdout. A fresh process per measurement keeps peak RSS honest.
struct ChildRequest: Codable, Sendable {
    enum Role: String, Codable, Sendable {
        /// Create the subject and execute the setup plus `commands` transactions in batches of 1000.
        case build
        /// Open the subject and read every balance.
        case open
        /// Tally only: read every balance from the read-side store without opening the engine
        /// (`Ledger.currentStore`, what `tally balances` and an app's first screen do).
        case openStore
        /// Tally: `JournalVerifier.verify` and a full rebuild (`LedgerReplay.replay`); the peer:
        /// `PRAGMA integrity_check`.
        case verify
        /// Tally only: `Ledger.rebuildReadSide` (what `tally rebuild` does): events/s, peak RSS.
        case rebuildStore
        /// Single commands (with raw fdatasync in between), batches of 1000, 64 concurrent tasks.
        case writes
        /// What `tally apply` does, through the library (when the CLI binary is not built).
        case applyLibrary
        /// One issue-15 query measurement (`query`), `repetitions` times after `warmups`.
        case query
        /// Issue 15: from `execute` returning to the balance observer's new value, over
        /// `repetitions` commands.
        case observation
        /// Tally only (issue 28, item 4): a new ledger with `commands` people, then
        /// `repetitions` single `addPerson` commands, each timed.
        case people
    }

    var role: Role
    var subject: SubjectKind
    var directory: String
    var seed: UInt64
    /// `build`: transactions after the setup; `writes`, `observation`: commands already in the
    /// ledger; `people`: the people in the ledger before the timed ones.
    var commands = 0
    var singleCommands = 0
    var batches = 0
    var concurrentCommandsPerTask = 0
    /// `applyLibrary`: the JSON Lines command file.
    var file: String?
    /// `query`: the measurement.
    var query: QueryKind?
    /// `query`: timed queries; `observation`: commands observed; `people`: people added.
    var repetitions = 0
    /// `query`: untimed queries before the timed ones.
    var warmups = 0
    /// `query`: timed seconds after which the measurement stops early (0: never).
    var budgetSeconds = 0.0
    /// `people`: whether the ledger keeps its read side (`LedgerOptions.keepsReadSide`).
    var keepsReadSide = true

    static let figuresPrefix = "FIGURES "
}

extension SubjectKind: Codable {}

/// Named figures a child reports.
typealias Figures = [String: Double]
