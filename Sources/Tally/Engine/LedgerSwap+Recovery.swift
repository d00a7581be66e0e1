import SystemPackage
import TallyJournal

extension Ledger {
    /// Finishes what a crash or a kill left of a restore's or reset's swap at `directory`, or
    /// refuses, naming the folders; run by every opener (``open(at:options:)``,
    /// ``LedgerReplay``, ``currentStore(at:encryption:fileSystem:)``, ``LedgerAudit``,
    /// ``LedgerRepair``), so a host calls it only to learn what was done.
    ///
    /// - With the swap's intent record (``LedgerDirectory/swapIntent``) the new ledger is
    ///   complete (the record is written only after it audited clean and was synced) and the
    ///   swap is committed: it is finished, whichever rename the crash came before (old ledger
    ///   set aside as the record's `<name>.replaced-N`, new one renamed into place, record
    ///   removed, the parent synced after each), holding the restoring folder's lock and, while
    ///   the old ledger is moved, its journal's writer lock.
    /// - Without one, a ``LedgerDirectory/restoring`` folder beside a ledger is what an
    ///   interrupted restore or reset left before it committed: it is removed (it may hold a
    ///   copy of the keys, P2) and the ledger is unchanged. Beside a path with no ledger it is
    ///   not known to be complete: ``LedgerError/swapInterrupted(_:)`` names it and the
    ///   `<name>.replaced-N` folders and says what to run; nothing is created at the path.
    ///
    /// - Returns: what was done (nothing, usually).
    /// - Throws: ``LedgerError/restoreInProgress(_:)`` while a restore or reset of the path is
    ///   running (another process holds its lock); ``LedgerError/swapInterrupted(_:)``;
    ///   ``LedgerError/replaceRefused(_:)`` when the ledger to set aside is open for writing;
    ///   ``LedgerError/storage(_:)`` `ioFailure` when a rename or sync fails (the record stays:
    ///   the next open tries again).
    @discardableResult
    public static func recoverInterruptedSwap(
        at directory: FilePath, fileSystem: any FileSystem = PosixFileSystem()
    ) throws(LedgerError) -> SwapRecovery {
        try LedgerSwap.recover(LedgerDirectory(directory), fileSystem: fileSystem)
    }
}

extension LedgerSwap {
    /// Where a folder of the swap stands.
    enum Place: Equatable {
        case absent, emptyFolder, ledger, other
    }

    /// ``Ledger/recoverInterruptedSwap(at:fileSystem:)``. With `rebuilding` (a restore or reset
    /// about to empty and rebuild the restoring folder), a leftover restoring folder without a
    /// record is left to it rather than refused or removed.
    package static func recover(
        _ target: LedgerDirectory, fileSystem: any FileSystem, rebuilding: Bool = false
    ) throws(LedgerError) -> SwapRecovery {
        if fileSystem.fileExists(at: target.swapIntent) { return try finish(target, fileSystem: fileSystem) }
        let temporaryRecord = FilePath(target.swapIntent.string + AtomicReplacement.temporarySuffix)
        guard fileSystem.fileExists(at: target.restoring) || fileSystem.fileExists(at: temporaryRecord) else {
            return SwapRecovery(directory: target.path)
        }
        return try settleLeftover(target, fileSystem: fileSystem, rebuilding: rebuilding)
    }

    /// No record: a restoring folder (or a half-written record) of a swap that never committed.
    private static func settleLeftover(
        _ target: LedgerDirectory, fileSystem: any FileSystem, rebuilding: Bool
    ) throws(LedgerError) -> SwapRecovery {
        var recovery = SwapRecovery(directory: target.path)
        let holdsLedger = target.holdsLedger(fileSystem: fileSystem)
        var lock: (any FileLock)?
        if fileSystem.fileExists(at: target.restoring) {
            do {
                lock = try fileSystem.lockExclusively(at: target.restoring)
            } catch where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
                // A restore or reset is building there now: beside a ledger it is not ours to
                // touch; without one, the path is about to be filled.
                if holdsLedger || rebuilding { return recovery }
                throw .restoreInProgress(target.path.string)
            } catch where error == .noSuchFileOrDirectory {
                return recovery  // a running swap has just renamed it into place
            } catch {
                if holdsLedger || rebuilding { return recovery }
                throw .swapInterrupted(unprovenLeftoverMessage(target, fileSystem: fileSystem))
            }
        }
        defer { lock?.unlock() }
        if rebuilding { return recovery }
        guard holdsLedger || lock == nil else {
            throw .swapInterrupted(unprovenLeftoverMessage(target, fileSystem: fileSystem))
        }
        // Not the ledger (no record proves it complete): nothing in it is needed.
        try? fileSystem.removeFile(at: FilePath(target.swapIntent.string + AtomicReplacement.temporarySuffix))
        if lock != nil {
            try? fileSystem.removeTree(at: target.restoring)
            recovery.removedInterruptedRestore = !fileSystem.fileExists(at: target.restoring)
            if recovery.removedInterruptedRestore { try? fileSystem.synchronizeDirectory(at: target.parent) }
        }
        return recovery
    }

    /// A record exists: the swap committed; finish it.
    private static func finish(_ target: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) -> SwapRecovery {
        // A running swap holds the restoring folder's lock from before it writes the record
        // until it removes it (after the last rename, on that folder at the target's path).
        var lock: (any FileLock)?
        for candidate in [target.restoring, target.path] where lock == nil && fileSystem.fileExists(at: candidate) {
            do {
                lock = try fileSystem.lockExclusively(at: candidate)
            } catch where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
                throw .restoreInProgress(target.path.string)
            } catch where error == .noSuchFileOrDirectory || error == .notDirectory {
                continue
            } catch {
                throw .storage(JournalError(error, operation: "lock \(candidate) to finish the interrupted swap", path: candidate))
            }
        }
        defer { lock?.unlock() }
        guard let intent = try readIntent(target, fileSystem: fileSystem) else {
            return SwapRecovery(directory: target.path)  // finished meanwhile
        }
        var recovery = SwapRecovery(directory: target.path)
        recovery.finishedOperation = intent.operation.rawValue
        let here = place(target.path, fileSystem)
        let restoring = place(target.restoring, fileSystem)
        if let number = intent.asideNumber {
            let aside = target.replaced(number: number)
            let kept = place(aside, fileSystem)
            switch (here, kept, restoring) {
            case (.ledger, .absent, .ledger):
                let writerLock: any FileLock
                do {
                    writerLock = try lockWriter(of: target, fileSystem: fileSystem)
                } catch .replaceRefused {
                    throw .replaceRefused("\(target) is open for writing, but the \(intent.operation.rawValue) recorded in \(target.swapIntent.string) is to replace it and is not finished; close it, then open it again (nothing was changed)")
                }
                defer { writerLock.unlock() }
                try step("set the replaced ledger aside as \(aside.string)", target, intent, fileSystem) { () throws(Errno) in
                    try fileSystem.rename(from: target.path, to: aside)
                }
                try step("move the new ledger from \(target.restoring.string) into place", target, intent, fileSystem) { () throws(Errno) in
                    try fileSystem.rename(from: target.restoring, to: target.path)
                }
                recovery.replacedLedgerKeptAt = aside
            case (.absent, .ledger, .ledger):
                try step("move the new ledger from \(target.restoring.string) into place", target, intent, fileSystem) { () throws(Errno) in
                    try fileSystem.rename(from: target.restoring, to: target.path)
                }
                recovery.replacedLedgerKeptAt = aside
            case (.ledger, .ledger, .absent):
                // Both renames were done; only the record was left.
                recovery.replacedLedgerKeptAt = aside
            default:
                throw .swapInterrupted(mismatchMessage(target, intent, here: here, aside: (aside, kept), restoring: restoring))
            }
        } else {
            switch (here, restoring) {
            case (.absent, .ledger), (.emptyFolder, .ledger):
                try step("move the restored ledger from \(target.restoring.string) into place", target, intent, fileSystem) { () throws(Errno) in
                    try fileSystem.rename(from: target.restoring, to: target.path)
                }
            case (.ledger, .absent):
                break
            default:
                throw .swapInterrupted(mismatchMessage(target, intent, here: here, aside: nil, restoring: restoring))
            }
        }
        // Finished and durable: the record goes. Should that fail, the next open finds the swap
        // finished and removes it then.
        if (try? fileSystem.removeFile(at: target.swapIntent)) != nil {
            try? fileSystem.synchronizeDirectory(at: target.parent)
        }
        return recovery
    }

    /// One rename of the recovery and the parent's sync after it; a failure keeps the record,
    /// so the next open tries again from where this one stopped.
    private static func step(
        _ what: String, _ target: LedgerDirectory, _ intent: SwapIntent, _ fileSystem: any FileSystem,
        _ body: () throws(Errno) -> Void
    ) throws(LedgerError) {
        do {
            try body()
            try fileSystem.synchronizeDirectory(at: target.parent)
        } catch {
            throw .storage(.ioFailure(
                operation: "finish the interrupted \(intent.operation.rawValue) of \(target) (\(what)); its record \(target.swapIntent.string) stays and the next open tries again; nothing is lost",
                path: target.path.string, errno: error.rawValue))
        }
    }

    /// The record, nil when it is gone; ``LedgerError/swapInterrupted(_:)`` when it is not one.
    private static func readIntent(_ target: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) -> SwapIntent? {
        let bytes: [UInt8]
        do {
            let file = try fileSystem.openFile(at: target.swapIntent, writable: false)
            bytes = try file.readBytes(count: SwapIntent.bytesMax + 1, at: 0)
        } catch where error == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw .storage(JournalError(error, operation: "read the record of an interrupted swap", path: target.swapIntent))
        }
        guard let intent = SwapIntent.decode(bytes) else {
            throw .swapInterrupted(
                "\(target): \(target.swapIntent.string) is not a swap record this version of Tally wrote (damaged or foreign), so it cannot tell which ledger to keep; nothing was changed. \(folderStates(target, fileSystem: fileSystem)) \(choiceAdvice(target, asides: asideNames(target, fileSystem: fileSystem)))")
        }
        return intent
    }

    static func place(_ path: FilePath, _ fileSystem: any FileSystem) -> Place {
        guard fileSystem.fileExists(at: path) else { return .absent }
        if fileSystem.fileExists(at: path.appending(LedgerDirectory.journalName)) { return .ledger }
        if let names = try? fileSystem.contentsOfDirectory(at: path), names.isEmpty { return .emptyFolder }
        return .other
    }

    private static func describe(_ place: Place) -> String {
        switch place {
        case .absent: "does not exist"
        case .emptyFolder: "is an empty folder"
        case .ledger: "holds a ledger"
        case .other: "is not a ledger"
        }
    }

    private static func mismatchMessage(
        _ target: LedgerDirectory, _ intent: SwapIntent, here: Place, aside: (path: FilePath, place: Place)?, restoring: Place
    ) -> String {
        var states = ["\(target) \(describe(here))"]
        if let aside { states.append("\(aside.path.string) \(describe(aside.place))") }
        states.append("\(target.restoring.string) \(describe(restoring))")
        return "\(target): an interrupted \(intent.operation.rawValue) recorded in \(target.swapIntent.string) cannot be finished: the folders are not as it left them (\(states.joined(separator: ", "))); nothing was changed. \(choiceAdvice(target, asides: aside.map { [$0.path.string] } ?? []))"
    }

    private static func unprovenLeftoverMessage(_ target: LedgerDirectory, fileSystem: any FileSystem) -> String {
        let asides = asideNames(target, fileSystem: fileSystem)
        var text = "\(target): no ledger here, but \(target.restoring.string) beside it is what an interrupted restore or reset left, and no record (\(target.swapIntent.string)) says it is complete, so it is not used"
        if !asides.isEmpty {
            text += "; \(asides.joined(separator: ", ")) beside it \(asides.count == 1 ? "is a ledger" : "are ledgers") a restore or reset set aside (the highest number is the newest)"
        }
        text += "; nothing was changed and nothing is created here until you choose."
        if let newest = asides.last {
            text += " To go back to the ledger it replaced, rename \(newest) to \(target) (opening it then removes \(target.restoring.string));"
        }
        text += " to restore a backup again, run `tally import backup FILE --ledger \(target)` (it starts afresh); to start a new ledger, delete \(target.restoring.string), then run `tally init --ledger \(target)`."
        return text
    }

    private static func folderStates(_ target: LedgerDirectory, fileSystem: any FileSystem) -> String {
        var states = ["\(target) \(describe(place(target.path, fileSystem)))", "\(target.restoring.string) \(describe(place(target.restoring, fileSystem)))"]
        for aside in asideNames(target, fileSystem: fileSystem) { states.append("\(aside) \(describe(place(FilePath(aside), fileSystem)))") }
        return "Now " + states.joined(separator: ", ") + "."
    }

    private static func choiceAdvice(_ target: LedgerDirectory, asides: [String]) -> String {
        let old = asides.last ?? "\(target)\(LedgerDirectory.replacedSuffix)N"
        return "Choose: to keep the ledger from before, rename \(old) to \(target) if \(target) is missing; to keep the new one, rename \(target.restoring.string) to \(target) (move \(target) aside first if it exists); then delete \(target.swapIntent.string) and the folders you do not need."
    }

    private static func asideNames(_ target: LedgerDirectory, fileSystem: any FileSystem) -> [String] {
        target.replacedNumbers(fileSystem: fileSystem).map { target.replaced(number: $0).string }
    }
}
