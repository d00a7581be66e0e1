#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TallyJournal

/// Putting a ledger built beside its target into place, for a restore (`Ledger.restore`) and a
/// reset (`LedgerReset`): the one place every file operation of the swap goes through, each
/// through one ``FileSystem`` (tests inject a fault or a crash at each step).
///
/// The new ledger is built in ``LedgerDirectory/restoring``, created and locked by
/// ``lockRestoring(_:fileSystem:)`` and kept locked until the swap ends.
/// ``commitReplacing(_:operation:fileSystem:)`` (or ``commitIntoEmpty(_:operation:fileSystem:)``):
///
/// 1. syncs the restoring folder;
/// 2. writes the intent record ``LedgerDirectory/swapIntent`` (``SwapIntent``: temporary file,
///    fsync, rename, fsync of the parent). From here on the swap is committed;
/// 3. when replacing, renames the old ledger to `<name>.replaced-N` and syncs the parent;
/// 4. renames the restoring folder into place and syncs the parent;
/// 5. removes the record and syncs the parent.
///
/// A crash before step 2 completes leaves the old ledger in place and a leftover restoring
/// folder, which the next opener removes; a crash after it leaves the record, and the next
/// opener finishes the swap (``recover(_:fileSystem:rebuilding:)``). A failure (an error, the
/// process still running) before the record undoes nothing because nothing was changed; after
/// it, the renames done are undone and the record withdrawn, or, when that fails too, the
/// error says the next open finishes the swap.
package enum LedgerSwap {
    /// The most `<name>.replaced-N` folders looked past for a free number.
    static let replacedNumberMax = 10_000

    /// Creates (owner-only, 0700, like every ledger folder, E18) and locks the folder a restore
    /// or reset builds in, emptied of what an interrupted one left (through `fileSystem`).
    /// - Throws: ``LedgerError/restoreInProgress(_:)`` when another restore or reset of
    ///   `target` holds it; ``LedgerError/storage(_:)`` when it cannot be created, locked or
    ///   emptied.
    package static func lockRestoring(_ target: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) -> any FileLock {
        let restoring = target.restoring
        do {
            try fileSystem.createDirectory(at: restoring)
        } catch where error == .fileExists {
            // A leftover, or a restore running now: the lock tells them apart.
        } catch {
            throw .storage(JournalError(error, operation: "create directory", path: restoring))
        }
        let lock: any FileLock
        do {
            lock = try fileSystem.lockExclusively(at: restoring)
        } catch where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
            throw .restoreInProgress(target.path.string)
        } catch {
            throw .storage(JournalError(error, operation: "lock the restore folder", path: restoring))
        }
        do {
            for name in try fileSystem.contentsOfDirectory(at: restoring) {
                try fileSystem.removeTree(at: restoring.appending(name))
            }
        } catch {
            lock.unlock()
            throw .storage(JournalError(error, operation: "empty what an interrupted restore left", path: restoring))
        }
        if fileSystem.isOperatingSystemFileSystem, chmod(restoring.string, 0o700) != 0 {
            let failure = errno
            lock.unlock()
            throw .storage(.ioFailure(operation: "make the restore folder owner-only", path: restoring.string, errno: failure))
        }
        return lock
    }

    /// Removes the restoring folder of `target` (a restore or reset that failed before its
    /// record was written). Best effort, through `fileSystem`: whatever stays is removed by
    /// the next open of the target or emptied by the next restore.
    package static func discard(_ target: LedgerDirectory, fileSystem: any FileSystem) {
        try? fileSystem.removeTree(at: target.restoring)
    }

    /// Puts the ledger built (complete, audited) in the restoring folder of `target` in the
    /// place of the ledger there, which is kept beside it as `<name>.replaced-N`, as the type's
    /// overview says. The old journal's writer lock is held throughout, so no writer appends to
    /// a ledger being set aside; the caller holds the restoring folder's lock. On a failure
    /// before the record is written (the ledger open for writing, say), or one undone, the
    /// restoring folder is removed.
    /// - Returns: where the replaced ledger is kept.
    /// - Throws: ``LedgerError/replaceRefused(_:)`` (the ledger is open for writing),
    ///   ``LedgerError/storage(_:)`` `ioFailure` saying whether anything changed and, when
    ///   the swap stays committed, that the next open of `target` finishes it.
    package static func commitReplacing(
        _ target: LedgerDirectory, operation: SwapIntent.Operation, fileSystem: any FileSystem
    ) throws(LedgerError) -> FilePath {
        let writerLock: any FileLock
        let number: Int
        do throws(LedgerError) {
            writerLock = try lockWriter(of: target, fileSystem: fileSystem)
            do throws(LedgerError) {
                try requireNotSynced(target, fileSystem: fileSystem)
                number = try freeReplacedNumber(of: target, fileSystem: fileSystem)
            } catch {
                writerLock.unlock()
                throw error
            }
        } catch {
            discard(target, fileSystem: fileSystem)
            throw error
        }
        defer { writerLock.unlock() }
        try commit(into: target, operation: operation, asideNumber: number, fileSystem: fileSystem)
        return target.replaced(number: number)
    }

    /// Puts the ledger built in the restoring folder of `target` into place at `target`, which
    /// is absent or an empty folder, as ``commitReplacing(_:operation:fileSystem:)`` does.
    /// - Throws: ``LedgerError/restoreTargetNotEmpty(_:)`` (the target was filled meanwhile;
    ///   nothing was restored), ``LedgerError/storage(_:)`` as ``commitReplacing(_:operation:fileSystem:)``.
    package static func commitIntoEmpty(
        _ target: LedgerDirectory, operation: SwapIntent.Operation, fileSystem: any FileSystem
    ) throws(LedgerError) {
        try commit(into: target, operation: operation, asideNumber: nil, fileSystem: fileSystem)
    }

    /// Steps 1 to 5 of the overview (step 3 only with an `asideNumber`).
    private static func commit(
        into target: LedgerDirectory, operation: SwapIntent.Operation, asideNumber: Int?, fileSystem: any FileSystem
    ) throws(LedgerError) {
        let replacing = asideNumber != nil
        let aside = asideNumber.map(target.replaced(number:))
        do {
            try fileSystem.synchronizeDirectory(at: target.restoring)
            try fileSystem.replaceAtomically(
                target.swapIntent, with: SwapIntent(operation: operation, asideNumber: asideNumber).encoded())
        } catch {
            // The record is there when only the parent's sync failed: it goes, durably, before
            // the folder it vouches for; if it cannot, the swap stays committed.
            let withdrawn = !fileSystem.fileExists(at: target.swapIntent)
                || ((try? fileSystem.removeFile(at: target.swapIntent)) != nil && (try? fileSystem.synchronizeDirectory(at: target.parent)) != nil)
            guard withdrawn else {
                throw .storage(.ioFailure(
                    operation: "record the swap into \(target): the record \(target.swapIntent.string) was written but could not be withdrawn, so the next open of \(target) (any tally command) finishes the swap; the new ledger is complete at \(target.restoring.string)",
                    path: target.swapIntent.string, errno: error.rawValue))
            }
            discard(target, fileSystem: fileSystem)
            throw .storage(.ioFailure(
                operation: "record the swap into \(target) (nothing was changed)", path: target.swapIntent.string, errno: error.rawValue))
        }
        var setAside = false
        do {
            if let aside {
                try fileSystem.rename(from: target.path, to: aside)
                setAside = true
                try fileSystem.synchronizeDirectory(at: target.parent)
            }
            try fileSystem.rename(from: target.restoring, to: target.path)
        } catch {
            throw undo(target, aside: setAside ? aside : nil, replacing: replacing, after: error, fileSystem: fileSystem)
        }
        do {
            try fileSystem.synchronizeDirectory(at: target.parent)
        } catch {
            // The record stays: if a crash undoes a rename before the disk syncs the folder,
            // the next open finishes the swap.
            throw .storage(.ioFailure(
                operation: "sync the folder holding \(target) after the swap: the new ledger is in place\(aside.map { ", the old one at \($0.string)" } ?? ""); the record \(target.swapIntent.string) stays, so the next open of \(target) finishes the swap should a crash undo a rename",
                path: target.parent.string, errno: error.rawValue))
        }
        // The swap is done and durable; a record that cannot be removed now is removed by
        // the next open (it finds the swap finished), so this is not a failure of the swap.
        if (try? fileSystem.removeFile(at: target.swapIntent)) != nil {
            try? fileSystem.synchronizeDirectory(at: target.parent)
        }
    }

    /// After a rename of the swap failed: puts the old ledger back, then withdraws the record
    /// and removes the restoring folder, each durable before the next. Returns the error to
    /// throw: "nothing was changed" when all of it worked, otherwise that the swap stays
    /// recorded and the next open finishes it (naming where both ledgers are).
    private static func undo(
        _ target: LedgerDirectory, aside: FilePath?, replacing: Bool, after failure: Errno, fileSystem: any FileSystem
    ) -> LedgerError {
        do {
            if let aside { try fileSystem.rename(from: aside, to: target.path) }
            try fileSystem.synchronizeDirectory(at: target.parent)
            try fileSystem.removeFile(at: target.swapIntent)
            try fileSystem.synchronizeDirectory(at: target.parent)
        } catch {
            let old = aside.map { "the old ledger is at \($0.string)" } ?? (replacing ? "the old ledger is at \(target)" : "")
            return .storage(.ioFailure(
                operation: "move the new ledger into place, and undoing the swap failed too (\(error)): the swap stays recorded in \(target.swapIntent.string) and the next open of \(target) (any tally command) finishes it; the new ledger is complete at \(target.restoring.string)\(old.isEmpty ? "" : ", " + old)",
                path: target.path.string, errno: failure.rawValue))
        }
        discard(target, fileSystem: fileSystem)
        if !replacing, failure == .directoryNotEmpty || failure == .fileExists {
            return .restoreTargetNotEmpty("\(target) was filled while restoring; nothing was restored")
        }
        return .storage(.ioFailure(
            operation: replacing
                ? "move the new ledger into place (the old ledger is where it was; nothing was changed)"
                : "move the restored ledger into place (nothing was changed)",
            path: target.path.string, errno: failure.rawValue))
    }

    /// Refuses to replace a synced device's ledger: it holds the household's history as the
    /// server ordered it, and its outbox the only copy of commands not yet confirmed; a new
    /// ledger in its place would not follow the server's history and would strand the outbox.
    /// Checked before a restore builds anything, and again under the writer lock.
    package static func requireNotSynced(_ target: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) {
        guard !fileSystem.fileExists(at: target.syncOutbox) else {
            throw .syncedLedger("\(target) is a synced device's ledger (it has \(LedgerDirectory.syncOutboxName)): it is not replaced by a restore or reset, which would strand the commands in its outbox and leave a history the server does not have; restore into a new folder (nothing was changed)")
        }
    }

    /// The writer lock of the journal of the ledger at `target`.
    static func lockWriter(of target: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) -> any FileLock {
        do {
            return try fileSystem.lockExclusively(at: target.journal)
        } catch where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
            throw .replaceRefused("\(target) is open for writing (an app or `tally` holds it); close it, then replace it (nothing was changed)")
        } catch {
            throw .storage(JournalError(error, operation: "lock the ledger being replaced", path: target.journal))
        }
    }

    /// The first `N` with no `<name>.replaced-N` beside `target`.
    private static func freeReplacedNumber(of target: LedgerDirectory, fileSystem: any FileSystem) throws(LedgerError) -> Int {
        for number in 1...replacedNumberMax where !fileSystem.fileExists(at: target.replaced(number: number)) {
            return number
        }
        throw .replaceRefused("\(target.replaced(number: 1)) to \(target.replaced(number: replacedNumberMax)) all exist; delete the replaced ledgers you no longer need (nothing was changed)")
    }
}
