import SystemPackage
import Tally
import TallyInterchange
import TallyJournal
import TallyStore

/// The read-side store for the query subcommands (`transactions`, `report`, `statement`...),
/// opened without the writer lock, ever (issue 29; Docs/CLI.md "Readers and writers"): a
/// reader never stops a writer, and reads while one writes.
enum StoreAccess {
    /// Runs `body` with the store as far as it covers the journal. When it is behind the
    /// journal's end (a writer beside this reader commits it a moment after the journal; a
    /// writer that crashed left it behind until the next open catches it up), stderr says how
    /// far it covers.
    static func read<Value>(at path: String, encryption: JournalEncryption?, _ body: (LedgerStore) throws -> Value) throws -> Value {
        try covered(at: path, encryption: encryption) { store, _ in try body(store) }
    }

    /// Runs `body` with the store and the ledger's history replayed through the same sequence
    /// number, for answers that take both (a statement's balances, the pay periods).
    static func read<Value>(
        at path: String, encryption: JournalEncryption?, _ body: (LedgerStore, LedgerHistory) throws -> Value
    ) throws -> Value {
        try covered(at: path, encryption: encryption) { store, sequenceNumber in
            try body(store, try LedgerAccess.history(at: path, through: sequenceNumber, encryption: encryption))
        }
    }

    /// How many times a read is tried again when a writer moved the store on while it ran.
    private static let attemptsMax = 3

    private static func covered<Value>(
        at path: String, encryption: JournalEncryption?, _ body: (LedgerStore, UInt64) throws -> Value
    ) throws -> Value {
        try LedgerAccess.requireLedger(at: path)
        var attempt = 1
        while true {
            let view: CoveredStore?
            do {
                view = try Ledger.coveredStore(at: FilePath(path), encryption: encryption)
            } catch {
                throw CLIError.ledger(error, at: path)
            }
            guard let view else {
                throw CLIError("\(path): the read-side store is missing (a writer builds it when it opens the ledger), damaged or does not match the journal; readers never write it: `tally rebuild --ledger \(path)` builds it again from the journal")
            }
            defer { view.store.close() }
            let value: Value
            do {
                value = try answer(path) { try body(view.store, view.sequenceNumber) }
            } catch {
                noteCoverage(of: view, at: path)  // what was looked for may not be there yet
                throw error
            }
            // Kept when the store covered the same point before and after the answer: a writer
            // beside this reader commits it as it goes.
            if (try? view.store.coverage())?.sequenceNumber == view.sequenceNumber || attempt == attemptsMax {
                noteCoverage(of: view, at: path)
                return value
            }
            attempt += 1
        }
    }

    /// Says on stderr how far a store behind the journal's end covers it.
    private static func noteCoverage(of view: CoveredStore, at path: String) {
        guard !view.isCurrent else { return }
        Terminal.error("tally: note: \(path): read from the read-side store, which covers the journal through sequence \(view.sequenceNumber) of \(view.journalEnd): the later events are not in it yet: a writer running now catches it up, otherwise the next one does at its open (`tally rebuild` does it now)")
    }

    private static func answer<Value>(_ path: String, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as StoreError {
            if case .invalidQuery(let reason) = error { throw CLIError(reason) }
            throw CLIError("\(path): \(error.description)")
        }
    }
}
