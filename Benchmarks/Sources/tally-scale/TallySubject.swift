import SystemPackage
import Tally
import TallyProjections

/// Tally through its host API: `Ledger.open` with default options (`.synchronous` durability,
/// a checkpoint every 10,000 events), `execute`, `read` (the read models), `close`.
struct TallySubject: LedgerSubject {
    let ledger: Ledger

    /// The ledger directory inside a run's subject directory.
    static func ledgerPath(in directory: String) -> FilePath {
        FilePath(directory).appending("ledger")
    }

    static func open(in directory: String) async throws -> TallySubject {
        TallySubject(ledger: try await Ledger.open(at: ledgerPath(in: directory), options: LedgerOptions()))
    }

    func execute(_ command: Command) async throws {
        try await ledger.execute(command)
    }

    func execute(batch commands: [Command]) async throws {
        try await ledger.execute(commands)
    }

    func readable() async {
        _ = await ledger.flushedStore()  // its getter hands over and waits for the pending store commit
    }

    func balances() async throws -> [WalletFigure] {
        try await Self.readBalances(from: ledger)
    }

    /// HOOK (read side): today the balances come from the in-memory read models that
    /// `Ledger.open` rebuilt (from the newest checkpoint plus the journal after it). When the
    /// SQLite read side lands, read them from the store here (a balances query on it), so
    /// that "open + read balances" measures what an app does then.
    static func readBalances(from ledger: Ledger) async throws -> [WalletFigure] {
        try await ledger.auditRead { try $0.wallets.balances() }.map {
            WalletFigure(walletID: $0.walletID.description, minorUnits: $0.balance.minorUnits)
        }
    }

    func close() async throws {
        try await ledger.close()
    }
}
