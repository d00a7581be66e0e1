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
        do {
            let value = try answer(path, try await store(of: ledger, at: path), body)
            try await LedgerAccess.close(ledger, at: path)
            return value
        } catch {
            try? await ledger.close()
            throw error
        }
    }

    /// The read-side store of an open ledger.
    /// - Throws: a CLI error naming why the ledger keeps none and how to rebuild it.
    static func store(of ledger: Ledger, at path: String) async throws -> LedgerStore {
        guard let store = await ledger.store else {
            throw CLIError("\(path): the read-side store cannot be used (\(ledger.openReport.readSide)); run `tally rebuild --ledger \(path)`")
        }
        return store
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
