import TallyJournal
import TallyModel

/// Every error the engine throws (G6, STYLE 5).
///
/// A rejected command is ``rejected(_:)`` with a ``RuleViolation``: a stable ``code``, the rule
/// rule id (``rule``, e.g. `W2`) and a ``message`` a user can act on. Storage and decoding
/// problems wrap the journal's and the codec's own typed errors. A rejected command or batch
/// appends nothing.
public enum LedgerError: Error, Sendable, Equatable {
    /// A command broke a domain rule; nothing was appended.
    case rejected(RuleViolation)
    /// The journal failed (I/O, lock, corruption, limits); the batch was not acknowledged.
    case storage(JournalError)
    /// A stored record could not be decoded into an event while opening or reading.
    case codec(EventCodecError, sequenceNumber: UInt64)
    /// A batch had more commands than ``LedgerOptions/commandsPerBatchMax``, or none.
    case invalidBatch(commandCount: Int, limit: Int)
    /// A batch needs more records than one journal frame holds
    /// (`JournalLimits.recordsPerFrameMax`): `recordCount` is the number of commands when
    /// refused before validation (each yields at least one event), or of events when period
    /// closes pushed it over during validation. Nothing was validated further or written.
    /// An atomic batch is one frame (G6); split it, or apply the commands in smaller batches.
    case batchTooLarge(recordCount: Int, limit: Int)
    /// The ledger was closed; open it again.
    case closed
    /// The personal key file (`personal-keys`) is damaged or cannot be read, or personal texts
    /// of people who were never forgotten cannot be opened with it (P2); the message says what
    /// to restore. Nothing was appended.
    case personalKeys(String)
    /// `LedgerRepair.apply` found the ledger changed since its plan was made (a writer ran in
    /// between); nothing was repaired. Make the plan again.
    case repairPlanOutdated
    /// The read-side store could not be rebuilt or the ledger keeps none (the message says
    /// which); the journal and the acknowledged commands are untouched.
    case readSide(String)
    /// A query the read side cannot answer as asked (a page size out of range, a cursor of
    /// another order); the message says what to change.
    case invalidQuery(String)
    /// `Ledger.restore` was given a target that exists and is not an empty directory, or that
    /// was filled while restoring; the message names it and what it holds. Nothing was written
    /// there.
    case restoreTargetNotEmpty(String)
    /// Another `Ledger.restore` or `LedgerReset` of the same target is running (it holds the
    /// lock on the target's ``LedgerDirectory/restoring`` folder, or on the folder it has just
    /// renamed into place); nothing was written. Try again once it has finished.
    case restoreInProgress(String)
    /// A restore or reset of this path was interrupted in a way no opener can finish or undo
    /// without guessing: no ledger at the path but a ``LedgerDirectory/restoring`` folder
    /// beside it that no intent record proves complete (a crash before this version, or
    /// folders moved by hand), or an intent record that does not match the folders (or is
    /// damaged). The message names every folder and what to run; nothing was changed, and
    /// nothing is created at the path until it is resolved.
    case swapInterrupted(String)
    /// The ledger `Ledger.restore` built does not audit clean (its events do not fold into a
    /// valid ledger); `problems` are the audit's, each with its location. Nothing was restored.
    case restoredLedgerInvalid(problems: [String])
    /// `Ledger.restore(..., replacing: true)` (or `LedgerReset`) was asked to replace a ledger
    /// that is open for writing, or a folder that is not a ledger; the message says which and
    /// what to do. Nothing was changed.
    case replaceRefused(String)
    /// The ledger is a synced device's (it has a sync outbox, Docs/Sync.md "The outbox"): its
    /// commands go through its `SyncDevice`, which records them in the outbox and pushes them;
    /// a write beside it would never reach the server. Or the outbox cannot be opened or
    /// written; the message says which. Nothing was written.
    case syncedLedger(String)

    /// A stable, machine-readable identifier (the violation's code for rejections).
    public var code: String {
        switch self {
        case .rejected(let violation): violation.code.rawValue
        case .storage(let error): error.code
        case .codec(let error, _): error.code
        case .invalidBatch: "invalidBatch"
        case .batchTooLarge: "batchTooLarge"
        case .closed: "ledgerClosed"
        case .personalKeys: "personalKeys"
        case .repairPlanOutdated: "repairPlanOutdated"
        case .readSide: "readSide"
        case .invalidQuery: "invalidQuery"
        case .restoreTargetNotEmpty: "restoreTargetNotEmpty"
        case .restoreInProgress: "restoreInProgress"
        case .swapInterrupted: "swapInterrupted"
        case .restoredLedgerInvalid: "restoredLedgerInvalid"
        case .replaceRefused: "replaceRefused"
        case .syncedLedger: "syncedLedger"
        }
    }

    /// The rule id (Docs/Domain.md) a rejection names (`"W2"`, `"S1"`...); `nil` for other errors.
    public var rule: String? {
        if case .rejected(let violation) = self { return violation.rule }
        return nil
    }

    /// A message a person can act on.
    public var message: String {
        switch self {
        case .rejected(let violation): violation.message
        case .storage(let error): error.description
        case .codec(let error, let sequenceNumber): "record \(sequenceNumber) cannot be decoded: \(error.message)"
        case .invalidBatch(let count, let limit):
            "a batch must hold 1...\(limit) commands, got \(count); split it into smaller batches"
        case .batchTooLarge(let count, let limit):
            "an atomic batch is one journal frame of at most \(limit) records (recordsPerFrameMax), and this one needs \(count); nothing was written. Split it into batches of at most \(limit) commands, or apply the commands without --atomic (one batch each)"
        case .closed: "the ledger is closed; open it again to continue"
        case .personalKeys(let reason): reason
        case .repairPlanOutdated: "the ledger changed since the repair plan was made; nothing was repaired. Run `tally repair` again to see the new plan"
        case .readSide(let reason): reason
        case .invalidQuery(let reason): reason
        case .restoreTargetNotEmpty(let reason): reason
        case .replaceRefused(let reason): reason
        case .syncedLedger(let reason): reason
        case .restoreInProgress(let target): "another restore or reset of \(target) is running; wait for it to finish, then try again (nothing was written)"
        case .swapInterrupted(let reason): reason
        case .restoredLedgerInvalid(let problems):
            "the restored events do not fold into a valid ledger (\(problems.count) problem(s)): \(problems.prefix(5).joined(separator: "; ")); nothing was restored"
        }
    }

    /// Builds a rejection.
    static func violation(_ code: RuleViolation.Code, _ message: String) -> LedgerError {
        .rejected(RuleViolation(code: code, message: message))
    }
}

extension LedgerError: CustomStringConvertible {
    /// `code [rule]: message`.
    public var description: String {
        if let rule { return "\(code) [\(rule)]: \(message)" }
        return "\(code): \(message)"
    }
}
