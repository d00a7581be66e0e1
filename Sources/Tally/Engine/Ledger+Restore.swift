import Foundation
import SystemPackage
import TallyJournal
import TallyModel

extension Ledger {
    /// Creates the ledger in `directory` from its journal frames and personal keys (restoring
    /// a backup), atomically: afterwards `directory` holds either the whole ledger or nothing.
    ///
    /// The ledger is built in ``LedgerDirectory/restoring`` beside the target, locked for the
    /// whole restore (a second restore into the same target meanwhile is refused; a leftover
    /// of an interrupted one, which is not locked, is emptied first, and ``Ledger/open(at:options:)``
    /// of the target removes one too, so no stray copy of the keys stays beside it):
    /// the key store first (a journal never holds sealed texts whose keys are not on disk, P2),
    /// then each frame appended by the journal's writer with `fdatasync`. The new ledger is
    /// audited (``LedgerAudit``: frames, checksums and chain, every event decoded and folded
    /// into the read models without a problem, shares summing to their amounts, every personal
    /// text readable); only a clean audit lets the folder be synced, renamed into place and
    /// the parent synced. On any failure before the rename the temporary folder is removed and
    /// nothing exists at `directory`, so a retry starts afresh; if only the parent's sync after
    /// the rename fails, the ledger is in place and the error says so.
    ///
    /// The audit checks what a fold can check; it does not replay commands, so an event that
    /// folds cleanly but no command could have produced is restored.
    ///
    /// - Parameters:
    ///   - frames: the records of each journal frame, in order; each non-empty.
    ///   - personalKeys: 32-byte keys by person.
    ///   - forgottenPeople: the people forgotten (their keys destroyed).
    ///   - directory: the target: absent or an empty directory (or a ledger, when `replacing`).
    ///   - encryption: encryption at rest for the restored ledger (journal frames and key file
    ///     sealed with it, as `LedgerOptions.encryption` does); nil writes it unencrypted.
    ///   - replacing: allow `directory` to hold a ledger, which is replaced (see below).
    /// - Returns: where the replaced ledger was kept, when one was replaced.
    /// - Throws: ``LedgerError/restoreTargetNotEmpty(_:)`` (the target is left untouched; also
    ///   for a target that is a file or a symbolic link), ``LedgerError/restoreInProgress(_:)``,
    ///   ``LedgerError/restoredLedgerInvalid(problems:)`` when the audit finds problems,
    ///   ``LedgerError/personalKeys(_:)`` for a key that is not 32 bytes,
    ///   ``LedgerError/replaceRefused(_:)`` (replacing a ledger open for writing),
    ///   ``LedgerError/storage(_:)`` when writing fails (`recordTooLarge`, `diskFull`, `ioFailure`...).
    ///
    /// Replacing (seed 001 US-703 "Replace current data?"): everything above happens first,
    /// beside the old ledger, which stays untouched until the new one has audited clean. Then,
    /// holding the old journal's writer lock (a ledger open for writing is refused with
    /// ``LedgerError/replaceRefused(_:)``), the old folder is renamed to
    /// ``LedgerDirectory/replaced(number:)`` (`<name>.replaced-N`, kept: it holds the only
    /// copy of whatever the backup lacks) and the new one renamed into place. If the second
    /// rename fails, the first is undone. A crash between the two leaves no ledger at
    /// `directory` and both folders beside it; the error or `tally audit` names them.
    @discardableResult
    public static func restore(
        frames: [[NewRecord]], personalKeys: [PersonID: [UInt8]], forgottenPeople: Set<PersonID>,
        into directory: FilePath, encryption: JournalEncryption? = nil, replacing: Bool = false
    ) async throws(LedgerError) -> FilePath? {
        let target = LedgerDirectory(directory)
        let replaces = replacing && target.holdsLedger()
        if !replaces { try requireEmptyTarget(target) }
        let temporary = LedgerDirectory(target.restoring)
        let fileSystem = PosixFileSystem()
        let lock = try lockRestoring(temporary, of: target, fileSystem: fileSystem)
        defer { lock.unlock() }
        do throws(LedgerError) {
            try PersonalKeyRing.install(
                keys: personalKeys, forgotten: forgottenPeople, ledgerDirectory: temporary.path,
                fileSystem: fileSystem, encryption: encryption)
            try await writeJournal(frames, at: temporary.journal, encryption: encryption)
            try requireCleanAudit(temporary, encryption: encryption)
            if replaces {
                return try swapIntoPlace(temporary, replacing: target, fileSystem: fileSystem)
            }
            try moveIntoPlace(temporary, target, fileSystem: fileSystem)
            return nil
        } catch {
            try? FileManager.default.removeItem(atPath: temporary.path.string)
            throw error
        }
    }

    /// Puts the ledger built in `temporary` in the place of the ledger at `target`, which is
    /// kept beside it as `<name>.replaced-N`; returns that path. The old journal's writer lock
    /// is held throughout, so no writer appends to a ledger being set aside.
    package static func swapIntoPlace(
        _ temporary: LedgerDirectory, replacing target: LedgerDirectory, fileSystem: PosixFileSystem
    ) throws(LedgerError) -> FilePath {
        let writerLock: any FileLock
        do {
            writerLock = try fileSystem.lockExclusively(at: target.journal)
        } catch where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
            throw .replaceRefused("\(target) is open for writing (an app or `tally` holds it); close it, then replace it (nothing was changed)")
        } catch {
            throw .storage(JournalError(error, operation: "lock the ledger being replaced", path: target.journal))
        }
        defer { writerLock.unlock() }
        var number = 1
        while fileSystem.fileExists(at: target.replaced(number: number)) { number += 1 }
        let aside = target.replaced(number: number)
        let parent = target.path.removingLastComponent()
        do {
            try fileSystem.synchronizeDirectory(at: temporary.path)
            try fileSystem.rename(from: target.path, to: aside)
        } catch {
            throw .storage(.ioFailure(operation: "set the replaced ledger aside (nothing was changed)", path: aside.string, errno: error.rawValue))
        }
        do {
            try fileSystem.rename(from: temporary.path, to: target.path)
        } catch {
            let undone = (try? fileSystem.rename(from: aside, to: target.path)) != nil
            throw .storage(.ioFailure(
                operation: undone
                    ? "move the restored ledger into place (the old ledger was put back; nothing was changed)"
                    : "move the restored ledger into place: the old ledger is at \(aside.string), the restored one at \(temporary.path.string); rename one of them to \(target.path.string)",
                path: target.path.string, errno: error.rawValue))
        }
        do {
            try fileSystem.synchronizeDirectory(at: parent.isEmpty ? "." : parent)
        } catch {
            throw .storage(.ioFailure(
                operation: "sync the folder holding the restored ledger (it is complete at \(target.path.string), the old one at \(aside.string); a crash before the disk syncs may undo the renames: check the disk, then open the ledger)",
                path: (parent.isEmpty ? "." : parent).string, errno: error.rawValue))
        }
        return aside
    }

    /// Creates (owner-only, 0700, like every ledger folder, E18) and locks the folder a restore
    /// builds in, emptied of what an interrupted restore left.
    private static func lockRestoring(
        _ temporary: LedgerDirectory, of target: LedgerDirectory, fileSystem: PosixFileSystem
    ) throws(LedgerError) -> any FileLock {
        do {
            try fileSystem.createDirectory(at: temporary.path)
        } catch where error == .fileExists {
            // A leftover, or a restore running now: the lock tells them apart.
        } catch {
            throw .storage(JournalError(error, operation: "create directory", path: temporary.path))
        }
        let lock: any FileLock
        do {
            lock = try fileSystem.lockExclusively(at: temporary.path)
        } catch where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
            throw .restoreInProgress(target.path.string)
        } catch {
            throw .storage(JournalError(error, operation: "lock the restore folder", path: temporary.path))
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path.string)) ?? [] {
            try? FileManager.default.removeItem(atPath: temporary.path.appending(name).string)
        }
        guard chmod(temporary.path.string, 0o700) == 0 else {
            lock.unlock()
            throw .storage(.ioFailure(operation: "make the restore folder owner-only", path: temporary.path.string, errno: errno))
        }
        return lock
    }

    /// Removes what an interrupted restore into `directory` left beside it (the
    /// ``LedgerDirectory/restoring`` folder, which may hold personal keys), unless a restore
    /// holds it now. Returns whether there was one.
    package static func removeInterruptedRestore(of directory: LedgerDirectory, fileSystem: any FileSystem) -> Bool {
        let leftover = directory.restoring
        guard fileSystem.isOperatingSystemFileSystem, fileSystem.fileExists(at: leftover),
              let lock = try? fileSystem.lockExclusively(at: leftover) else { return false }
        defer { lock.unlock() }
        return (try? FileManager.default.removeItem(atPath: leftover.string)) != nil
    }

    /// The target must not exist, or be an empty directory (not a file, not a symbolic link).
    package static func requireEmptyTarget(_ target: LedgerDirectory) throws(LedgerError) {
        var status = stat()
        guard lstat(target.path.string, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK:
            throw .restoreTargetNotEmpty("\(target) is a symbolic link; restore into a new or empty directory (a link is not followed)")
        default:
            throw .restoreTargetNotEmpty("\(target) is a file, not a directory; restore into a new or empty directory")
        }
        let names = try? FileManager.default.contentsOfDirectory(atPath: target.path.string)
        guard let names, names.isEmpty else {
            throw .restoreTargetNotEmpty("\(target) already exists and is not an empty directory (it holds \((names ?? []).sorted().prefix(3).joined(separator: ", "))); restore only into a new or empty directory")
        }
    }

    /// Every frame appended with the journal's writer, synced (sealed when `encryption` is given).
    private static func writeJournal(_ frames: [[NewRecord]], at path: FilePath, encryption: JournalEncryption?) async throws(LedgerError) {
        do throws(JournalError) {
            var options = JournalOptions(durability: .synchronous)
            options.encryption = encryption
            let journal = try Journal.open(at: path, options: options)
            do throws(JournalError) {
                for frame in frames { _ = try await journal.append(frame) }
            } catch {
                try? journal.close()
                throw error
            }
            try journal.close()
        } catch {
            throw .storage(error)
        }
    }

    /// The restored ledger must audit clean before it is moved into place.
    private static func requireCleanAudit(_ restored: LedgerDirectory, encryption: JournalEncryption?) throws(LedgerError) {
        let report = try LedgerAudit.audit(at: restored.path, encryption: encryption)
        guard report.isClean else { throw .restoredLedgerInvalid(problems: report.problems.map(\.description)) }
    }

    /// Syncs `temporary`, renames it to `target` and syncs the parent.
    private static func moveIntoPlace(
        _ temporary: LedgerDirectory, _ target: LedgerDirectory, fileSystem: PosixFileSystem
    ) throws(LedgerError) {
        let parent = target.path.removingLastComponent()
        do {
            try fileSystem.synchronizeDirectory(at: temporary.path)
            try fileSystem.rename(from: temporary.path, to: target.path)
        } catch {
            if error == .directoryNotEmpty || error == .fileExists {
                throw .restoreTargetNotEmpty("\(target) was filled while restoring; nothing was restored")
            }
            throw .storage(.ioFailure(operation: "move the restored ledger into place", path: target.path.string, errno: error.rawValue))
        }
        do {
            try fileSystem.synchronizeDirectory(at: parent.isEmpty ? "." : parent)
        } catch {
            // The ledger is complete and in place; only the rename's durability is in doubt.
            throw .storage(.ioFailure(
                operation: "sync the folder holding the restored ledger (the ledger is complete at \(target.path.string), but a crash before the disk syncs that folder may undo the rename: check the disk, then open the ledger)",
                path: (parent.isEmpty ? "." : parent).string, errno: error.rawValue))
        }
    }
}
