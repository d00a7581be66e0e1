import SystemPackage
import Tally
import TallyJournal
import TallyStore

/// The read-side store for the query subcommands (`transactions`, `report`).
enum StoreAccess {
    /// Runs `body` with a store that shows the journal's end: the one on disk when it is
    /// current (read without the writer lock), else the ledger is opened, which catches the
    /// store up or rebuilds it (with the writer lock), and closed after.
    static func read<Value>(at path: String, encryption: JournalEncryption?, _ body: (LedgerStore) throws -> Value) async throws -> Value {
        try LedgerAccess.requireLedger(at: path)
        let current: LedgerStore?
        do {
            current = try Ledger.currentStore(at: FilePath(path), encryption: encryption)
        } catch {
            throw CLIError.ledger(error, at: path)
        }
        if let current {
            defer { current.close() }
            return try answer(path, current, body)
        }
        let ledger = try await LedgerAccess.open(at: path, create: false, encryption: encryption)
        guard let store = await ledger.store else {
            let status = ledger.openReport.readSide
            try? await ledger.close()
            throw CLIError("\(path): the read-side store cannot be used (\(status)); run `tally rebuild --ledger \(path)`")
        }
        do {
            let value = try answer(path, store, body)
            try await LedgerAccess.close(ledger, at: path)
            return value
        } catch {
            try? await ledger.close()
            throw error
        }
    }

    private static func answer<Value>(_ path: String, _ store: LedgerStore, _ body: (LedgerStore) throws -> Value) throws -> Value {
        do {
            return try body(store)
        } catch let error as StoreError {
            if case .invalidQuery(let reason) = error { throw CLIError(reason) }
            throw CLIError("\(path): \(error.description)")
        }
    }
}
