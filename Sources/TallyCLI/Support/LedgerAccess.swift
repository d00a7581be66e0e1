import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyJournal
import TallyModel
import TallyProjections

/// Opening ledgers for the subcommands: read-only histories (no writer lock) and writable
/// `Ledger`s, with errors that name the directory.
enum LedgerAccess {
    /// Fails with "could not run" when `path` holds no ledger, after settling what an
    /// interrupted restore or reset left there (``settleSwap(at:)``).
    static func requireLedger(at path: String) throws {
        try settleSwap(at: path)
        let layout = LedgerDirectory(FilePath(path))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("\(path): no such ledger directory; \(setAsideHint(layout))create one with `tally init --ledger \(path)`")
        }
        guard layout.holdsLedger() else {
            throw CLIError("\(path): not a ledger (no \(LedgerDirectory.journalName)/ inside); create one with `tally init --ledger \(path)`")
        }
    }

    /// Finishes a restore or reset a crash interrupted at `path` (its intent record proves the
    /// new ledger complete) and removes what one left before it committed, saying so on
    /// stderr; fails, naming the folders and what to run, when the swap cannot be settled.
    /// Every subcommand runs it before it reads, writes or creates a ledger at `path`.
    static func settleSwap(at path: String) throws {
        let recovery: SwapRecovery
        do {
            recovery = try Ledger.recoverInterruptedSwap(at: FilePath(path))
        } catch {
            throw CLIError.ledger(error, at: path)
        }
        if recovery.didRecover { Terminal.error("tally: note: \(path): \(recovery)") }
    }

    /// "L.replaced-2 beside it is ... ; " when ledgers a restore or reset set aside are there.
    private static func setAsideHint(_ layout: LedgerDirectory) -> String {
        guard let newest = layout.replacedNumbers().last.map(layout.replaced(number:)) else { return "" }
        return "\(newest.string) beside it is a ledger a restore or reset set aside (rename it to \(layout.path.string) to use it again); or "
    }

    /// Reads every event (through `through`) without taking the writer lock. Damage is refused
    /// unless `allowDamaged`; then stderr says what was dropped.
    static func history(
        at path: String, through: UInt64? = nil, encryption: JournalEncryption?, allowDamaged: Bool = false
    ) throws -> LedgerHistory {
        try requireLedger(at: path)
        let history: LedgerHistory
        do {
            history = try LedgerHistory.load(at: FilePath(path), through: through, encryption: encryption, allowingDamage: allowDamaged)
        } catch {
            throw CLIError.interchange(error, at: path)
        }
        for problem in history.droppedProblems {
            Terminal.error("tally: warning: \(path): --allow-damaged: read records 1...\(history.lastSequenceNumber) only; dropped after them: \(problem)")
        }
        if history.unreadablePersonalTexts > 0 {
            Terminal.error("tally: warning: \(path): \(history.unreadablePersonalTexts) personal text(s) cannot be opened (keys missing from \(LedgerDirectory.personalKeysName); P2); they show as [sealed]. Restore \(LedgerDirectory.personalKeysName) from a backup of the ledger directory")
        }
        return history
    }

    /// Opens the ledger for writing (with the chain key of a keyed-chain ledger); `create` allows
    /// an empty directory; `batchLimit` raises
    /// the commands one `execute` may carry (an import applies all its rows at once).
    static func open(
        at path: String, create: Bool, encryption: JournalEncryption?, chainKey: [UInt8]? = nil, batchLimit: Int? = nil,
        entityLimits: EntityLimits = .none
    ) async throws -> Ledger {
        if create { try settleSwap(at: path) } else { try requireLedger(at: path) }
        var options = LedgerOptions()
        options.createIfMissing = create
        options.encryption = encryption
        options.chainKey = chainKey
        options.entityLimits = entityLimits
        if let batchLimit { options.commandsPerBatchMax = max(options.commandsPerBatchMax, batchLimit) }
        do {
            return try await Ledger.open(at: FilePath(path), options: options)
        } catch {
            throw CLIError.ledger(error, at: path)
        }
    }

    /// Opens the existing ledger at `path`, runs `body` with it and closes it (also when `body`
    /// fails: that failure is the one thrown). A `LedgerError` from `body` is a CLI error.
    static func using<Value>(at path: String, encryption: JournalEncryption?, _ body: (Ledger) async throws -> Value) async throws -> Value {
        let ledger = try await open(at: path, create: false, encryption: encryption)
        let value: Value
        do {
            value = try await body(ledger)
        } catch let error as LedgerError {
            try? await ledger.close()
            throw CLIError.ledger(error, at: path)
        } catch {
            try? await ledger.close()
            throw error
        }
        try await close(ledger, at: path)
        return value
    }

    /// Closes a ledger, turning a failure into a CLI error.
    static func close(_ ledger: Ledger, at path: String) async throws {
        do {
            try await ledger.close()
        } catch {
            throw CLIError.ledger(error, at: path)
        }
    }

    /// Parses a `YYYY-MM-DD` option value.
    static func date(_ text: String, option: String) throws -> LocalDate {
        do {
            return try LocalDate(iso: text)
        } catch {
            throw CLIError("\(option) \(text): expected a date YYYY-MM-DD")
        }
    }

    /// The last sequence number whose event was recorded on or before `date` (UTC).
    static func lastSequence(recordedOnOrBefore date: LocalDate, in history: LedgerHistory) throws -> UInt64 {
        var last: UInt64 = 0
        var events = try history.eventCursor()
        while let committed = try events.next() {
            guard let recorded = try? committed.event.recordedAt.utcDate(), recorded <= date else { break }
            last = committed.sequenceNumber
        }
        return last
    }
}
