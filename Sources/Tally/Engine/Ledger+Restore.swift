import Foundation
import SystemPackage
import TallyJournal
import TallyModel

extension Ledger {
    /// Creates the ledger in `directory` from its journal frames and personal keys (restoring
    /// a backup), atomically: afterwards `directory` holds either the whole ledger or nothing.
    ///
    /// The ledger is built in ``LedgerDirectory/restoring`` beside the target (a leftover one
    /// from an interrupted restore is removed first, so run one restore per target at a time):
    /// the key store first (a journal never holds sealed texts whose keys are not on disk, P2),
    /// then each frame appended by the journal's writer with `fdatasync`. The new ledger is
    /// audited (``LedgerAudit``: frames, checksums and chain, every event decoded and folded
    /// into the read models without a problem, shares summing to their amounts, every personal
    /// text readable); only a clean audit lets the folder be synced, renamed into place and
    /// the parent synced. On any failure the temporary folder is removed and nothing exists at
    /// `directory`, so a retry starts afresh.
    ///
    /// The audit checks what a fold can check; it does not replay commands, so an event that
    /// folds cleanly but no command could have produced is restored.
    ///
    /// - Parameters:
    ///   - frames: the records of each journal frame, in order; each non-empty.
    ///   - personalKeys: 32-byte keys by person.
    ///   - forgottenPeople: the people forgotten (their keys destroyed).
    ///   - directory: the target: absent or an empty directory.
    /// - Throws: ``LedgerError/restoreTargetNotEmpty(_:)`` (the target is left untouched),
    ///   ``LedgerError/restoredLedgerInvalid(problems:)`` when the audit finds problems,
    ///   ``LedgerError/personalKeys(_:)`` for a key that is not 32 bytes,
    ///   ``LedgerError/storage(_:)`` when writing fails (`recordTooLarge`, `diskFull`, `ioFailure`...).
    public static func restore(
        frames: [[NewRecord]], personalKeys: [PersonID: [UInt8]], forgottenPeople: Set<PersonID>,
        into directory: FilePath
    ) async throws(LedgerError) {
        let target = LedgerDirectory(directory)
        try requireEmptyTarget(target)
        let temporary = LedgerDirectory(target.restoring)
        try? FileManager.default.removeItem(atPath: temporary.path.string)
        let fileSystem = PosixFileSystem()
        do {
            // Owner-only (0700) like every ledger folder the engine creates (E18).
            try fileSystem.createDirectory(at: temporary.path)
        } catch {
            throw .storage(JournalError(error, operation: "create directory", path: temporary.path))
        }
        do throws(LedgerError) {
            try PersonalKeyRing.install(
                keys: personalKeys, forgotten: forgottenPeople, ledgerDirectory: temporary.path,
                fileSystem: fileSystem, encryption: nil)
            try await writeJournal(frames, at: temporary.journal)
            try requireCleanAudit(temporary)
            try moveIntoPlace(temporary, target, fileSystem: fileSystem)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary.path.string)
            throw error
        }
    }

    /// The target must not exist, or be an empty directory.
    private static func requireEmptyTarget(_ target: LedgerDirectory) throws(LedgerError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path.string, isDirectory: &isDirectory) else { return }
        let names = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: target.path.string)) : nil
        guard let names, names.isEmpty else {
            throw .restoreTargetNotEmpty("\(target) already exists and is not an empty directory (it holds \((names ?? []).sorted().prefix(3).joined(separator: ", "))); restore only into a new or empty directory")
        }
    }

    /// Every frame appended with the journal's writer, synced.
    private static func writeJournal(_ frames: [[NewRecord]], at path: FilePath) async throws(LedgerError) {
        do throws(JournalError) {
            let journal = try Journal.open(at: path, options: JournalOptions(durability: .synchronous))
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
    private static func requireCleanAudit(_ restored: LedgerDirectory) throws(LedgerError) {
        let report = try LedgerAudit.audit(at: restored.path)
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
            try fileSystem.synchronizeDirectory(at: parent.isEmpty ? "." : parent)
        } catch {
            if error == .directoryNotEmpty || error == .fileExists {
                throw .restoreTargetNotEmpty("\(target) was filled while restoring; nothing was restored")
            }
            throw .storage(.ioFailure(operation: "move the restored ledger into place", path: target.path.string, errno: error.rawValue))
        }
    }
}
