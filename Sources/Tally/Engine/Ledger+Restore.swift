import Foundation
import SystemPackage
import TallyJournal
import TallyModel

extension Ledger {
    /// Creates the ledger in `directory` from its journal frames and personal keys (restoring
    /// a backup), atomically: afterwards `directory` holds either the whole ledger or nothing
    /// (or, replacing, the old ledger).
    ///
    /// First whatever an interrupted restore or reset left at `directory` is settled
    /// (``recoverInterruptedSwap(at:fileSystem:)``: a committed swap is finished). The ledger is
    /// then built in ``LedgerDirectory/restoring`` beside the target, locked for the whole
    /// restore (a second restore or reset of the same target meanwhile is refused; a leftover
    /// of an interrupted one, which is not locked, is emptied first, and every opener of the
    /// target removes one too, so no stray copy of the keys stays beside it): the key store
    /// first (a journal never holds sealed texts whose keys are not on disk, P2), then each
    /// frame appended by the journal's writer with `fdatasync`. The new ledger is audited
    /// (``LedgerAudit``: frames, checksums and chain, every event decoded and folded into the
    /// read models without a problem, shares summing to their amounts, every personal text
    /// readable); only a clean audit lets it be swapped into place (`LedgerSwap`: the folder
    /// synced, an intent record written and synced beside the target, the renames, each
    /// followed by a sync of the parent, the record removed). On any failure before the
    /// record is written the temporary folder is removed and nothing changed at `directory`,
    /// so a retry starts afresh; once the record is written the swap is committed and a crash
    /// is finished by the next open of `directory`.
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
    ///   - fileSystem: every file operation of the restore goes through it (tests inject
    ///     faults and crashes); default POSIX.
    /// - Returns: where the replaced ledger was kept, when one was replaced.
    /// - Throws: ``LedgerError/restoreTargetNotEmpty(_:)`` (the target is left untouched; also
    ///   for a target that is a file or a symbolic link), ``LedgerError/restoreInProgress(_:)``,
    ///   ``LedgerError/swapInterrupted(_:)`` (an earlier swap of the target cannot be settled),
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
    /// copy of whatever the backup lacks) and the new one renamed into place. If a rename
    /// fails, the swap is undone; a crash between the two renames is finished by the next
    /// open (the intent record says the new ledger is complete).
    @discardableResult
    public static func restore(
        frames: [[NewRecord]], personalKeys: [PersonID: [UInt8]], forgottenPeople: Set<PersonID>,
        into directory: FilePath, encryption: JournalEncryption? = nil, replacing: Bool = false,
        fileSystem: any FileSystem = PosixFileSystem()
    ) async throws(LedgerError) -> FilePath? {
        let target = LedgerDirectory(directory)
        _ = try LedgerSwap.recover(target, fileSystem: fileSystem, rebuilding: true)
        let replaces = replacing && target.holdsLedger(fileSystem: fileSystem)
        if replaces { try LedgerSwap.requireNotSynced(target, fileSystem: fileSystem) } else { try requireEmptyTarget(target) }
        let temporary = LedgerDirectory(target.restoring)
        let lock = try LedgerSwap.lockRestoring(target, fileSystem: fileSystem)
        defer { lock.unlock() }
        do throws(LedgerError) {
            try PersonalKeyRing.install(
                keys: personalKeys, forgotten: forgottenPeople, ledgerDirectory: temporary.path,
                fileSystem: fileSystem, encryption: encryption)
            try await writeJournal(frames, at: temporary.journal, encryption: encryption, fileSystem: fileSystem)
            try requireCleanAudit(temporary, encryption: encryption, fileSystem: fileSystem)
        } catch {
            LedgerSwap.discard(target, fileSystem: fileSystem)
            throw error
        }
        if replaces { return try LedgerSwap.commitReplacing(target, operation: .restore, fileSystem: fileSystem) }
        try LedgerSwap.commitIntoEmpty(target, operation: .restore, fileSystem: fileSystem)
        return nil
    }

    /// The target must not exist, or be an empty directory (not a file, not a symbolic link).
    package static func requireEmptyTarget(_ target: LedgerDirectory) throws(LedgerError) {
        switch LedgerDirectory.kind(at: target.path) {
        case .absent, .unknown: return
        case .directory: break
        case .symbolicLink:
            throw .restoreTargetNotEmpty("\(target) is a symbolic link; restore into a new or empty directory (a link is not followed)")
        case .regularFile, .other:
            throw .restoreTargetNotEmpty("\(target) is a file, not a directory; restore into a new or empty directory")
        }
        let names = try? FileManager.default.contentsOfDirectory(atPath: target.path.string)
        guard let names, names.isEmpty else {
            throw .restoreTargetNotEmpty("\(target) already exists and is not an empty directory (it holds \((names ?? []).sorted().prefix(3).joined(separator: ", "))); restore only into a new or empty directory")
        }
    }

    /// Every frame appended with the journal's writer, synced (sealed when `encryption` is given).
    private static func writeJournal(
        _ frames: [[NewRecord]], at path: FilePath, encryption: JournalEncryption?, fileSystem: any FileSystem
    ) async throws(LedgerError) {
        do throws(JournalError) {
            var options = JournalOptions(durability: .synchronous)
            options.encryption = encryption
            let journal = try Journal.open(at: path, options: options, fileSystem: fileSystem)
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
    private static func requireCleanAudit(
        _ restored: LedgerDirectory, encryption: JournalEncryption?, fileSystem: any FileSystem
    ) throws(LedgerError) {
        let report = try LedgerAudit.audit(at: restored.path, encryption: encryption, fileSystem: fileSystem)
        guard report.isClean else { throw .restoredLedgerInvalid(problems: report.problems.map(\.description)) }
    }
}
