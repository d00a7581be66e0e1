import Tally

/// What the harness measures, through public API only: Tally's `Ledger`, or the GRDB app peer.
///
/// Every method is what a host app calls; nothing reaches into either engine, so the harness
/// keeps measuring the same things when Tally's internals change (group commit, a SQLite
/// read side).
protocol LedgerSubject: Sendable {
    /// Executes one command durably (Tally: `.synchronous`; the peer: one write transaction).
    func execute(_ command: Command) async throws
    /// Executes `commands` as one durable unit (one `execute` / one write transaction).
    func execute(batch commands: [Command]) async throws
    /// Returns once reads show every command executed so far (Tally: its read-side store has
    /// caught up, `ledger.flushedStore()`; the peer: at once, a commit is what its reads show).
    func readable() async
    /// Every wallet's balance, as the app would show them.
    func balances() async throws -> [WalletFigure]
    /// Closes the ledger or database.
    func close() async throws
}

/// One wallet balance, in minor units (the subjects are compared by these).
struct WalletFigure: Hashable, Sendable {
    let walletID: String
    let minorUnits: Int64
}

/// The two subjects, as named on the command line and in the table.
enum SubjectKind: String, CaseIterable, Sendable {
    case tally
    case peer

    var title: String {
        switch self {
        case .tally: "Tally"
        case .peer: "GRDB app"
        }
    }

    /// Opens (or creates) the subject's storage in `directory`.
    func open(in directory: String) async throws -> any QuerySubject {
        switch self {
        case .tally: try await TallySubject.open(in: directory)
        case .peer: try GRDBAppPeer(directory: directory)
        }
    }
}
