import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel

extension LedgerBackup {
    /// Writes the backup into `directory`, atomically: the directory must not exist or be
    /// empty, and afterwards it holds either the whole restored ledger or nothing.
    ///
    /// First the document's integrity is verified (``verifyIntegrity(acceptingUnverifiedFormat:)``:
    /// at least one record, sequence numbers contiguous from 1 up to the declared
    /// ``lastSequenceNumber``, and for version 3 every record's chain value, the trailer and the
    /// checksum), then every record is decoded. The ledger is then written into a temporary
    /// sibling directory (`.<name>.restoring`; a leftover one from an interrupted restore is
    /// removed first, so run one restore per target at a time): the personal keys, then each batch appended as one frame with `fdatasync`. The
    /// temporary ledger is audited (``LedgerAudit``: frames, checksums and chain, every event
    /// decoded and folded into the read models without a problem, shares summing to their
    /// amounts, every personal text readable); only a clean audit lets the directory be
    /// synced and renamed into place, and the parent directory synced. On any failure the
    /// temporary directory is removed and nothing exists at `directory`, so a retry starts
    /// afresh.
    ///
    /// The audit checks what a fold can check; it does not replay commands, so an event that
    /// folds cleanly but no command could have produced (an amount over
    /// `LedgerLimits.amountMinorUnitsMax`) is restored.
    ///
    /// - Parameters:
    ///   - directory: The target: absent or an empty directory.
    ///   - acceptingUnverifiedFormat: Restore a version 1 or 2 document, which has no chain or
    ///     checksum (its declared end is still checked). Off by default: such a document is
    ///     `backupUnverified`.
    /// - Throws: `InterchangeError` with an integrity code (`backupEmpty`, `backupTruncated`,
    ///   `backupUnverified`, `backupIntegrityMissing`, `backupChainMismatch` naming the record,
    ///   `backupTrailerMismatch`, `backupChecksumMismatch`), `backupInvalid` (sequence numbers
    ///   not contiguous, a payload that is not base64, a malformed personal key or forgotten id,
    ///   or a restored ledger the audit finds problems in; the message names the record or
    ///   the problems), an `EventCodecError` code for a record that does not decode,
    ///   `restoreTargetNotEmpty`, `ioFailure`, or a journal code when writing fails.
    public func restore(into directory: FilePath, acceptingUnverifiedFormat: Bool = false) async throws(InterchangeError) {
        try verifyIntegrity(acceptingUnverifiedFormat: acceptingUnverifiedFormat)
        let frames = try validatedFrames()
        let keys = try validatedKeys()
        try Self.requireEmptyTarget(directory)
        let temporary = Self.temporaryDirectory(for: directory)
        try? FileManager.default.removeItem(atPath: temporary.string)
        do {
            // Owner-only (0700) like every ledger folder the engine creates (E18).
            try PosixFileSystem().createDirectory(at: temporary)
        } catch {
            let mapped = JournalError(error, operation: "create directory", path: temporary)
            throw InterchangeError(code: mapped.code, message: mapped.description)
        }
        do throws(InterchangeError) {
            try await Self.write(frames: frames, keys: keys, into: temporary)
            try Self.audit(temporary)
            try Self.moveIntoPlace(temporary, directory)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary.string)
            throw error
        }
    }

    /// The records of every non-empty batch, decoded once to prove they decode (sequence
    /// numbers were checked by ``verifyIntegrity(acceptingUnverifiedFormat:)``).
    private func validatedFrames() throws(InterchangeError) -> [[NewRecord]] {
        var frames: [[NewRecord]] = []
        for batch in batches {
            var records: [NewRecord] = []
            for record in batch.records {
                guard let payload = Data(base64Encoded: record.payload) else {
                    throw InterchangeError(code: "backupInvalid", message: "record \(record.sequenceNumber): payload is not base64")
                }
                do {
                    _ = try EventCodec.decode(tag: record.tag, schemaVersion: record.schemaVersion, payload: Array(payload),
                                              recordedAt: Timestamp(millisecondsSinceEpoch: record.recordedAtMilliseconds))
                } catch {
                    throw InterchangeError(code: error.code, message: "backup record \(record.sequenceNumber) cannot be decoded: \(error.message)")
                }
                records.append(NewRecord(recordedAtMilliseconds: record.recordedAtMilliseconds, typeTag: record.tag,
                                         schemaVersion: record.schemaVersion, payload: Array(payload)))
            }
            if !records.isEmpty { frames.append(records) }
        }
        return frames
    }

    /// The personal keys and forgotten people, parsed.
    private func validatedKeys() throws(InterchangeError) -> (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>) {
        var keys: [PersonID: [UInt8]] = [:]
        for (id, hex) in (personalKeys ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let person = try? PersonID(parsing: id), let key = Hex.bytes(hex), key.count == 32 else {
                throw InterchangeError(code: "backupInvalid", message: "personal key of \(id): expected a person id and 64 hex digits")
            }
            keys[person] = key
        }
        var forgotten: Set<PersonID> = []
        for id in forgottenPeople ?? [] {
            guard let person = try? PersonID(parsing: id) else {
                throw InterchangeError(code: "backupInvalid", message: "forgotten person \(id) is not an id")
            }
            forgotten.insert(person)
        }
        return (keys, forgotten)
    }

    /// `directory` must not exist, or be an empty directory.
    private static func requireEmptyTarget(_ directory: FilePath) throws(InterchangeError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.string, isDirectory: &isDirectory) else { return }
        let names = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: directory.string)) : nil
        guard let names, names.isEmpty else {
            throw InterchangeError(code: "restoreTargetNotEmpty", message: "\(directory.string) already exists and is not an empty directory (it holds \((names ?? []).sorted().prefix(3).joined(separator: ", "))); restore only into a new or empty directory")
        }
    }

    /// `.<name>.restoring` next to `directory` (same file system, so the rename is atomic).
    static func temporaryDirectory(for directory: FilePath) -> FilePath {
        let name = directory.lastComponent?.string ?? "ledger"
        return directory.removingLastComponent().appending(".\(name).restoring")
    }

    /// The keys first (a journal never holds sealed texts whose keys are not on disk, P2),
    /// then every frame, synced.
    private static func write(
        frames: [[NewRecord]], keys: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>), into directory: FilePath
    ) async throws(InterchangeError) {
        do {
            try PersonalKeyRing.install(keys: keys.keys, forgotten: keys.forgotten, ledgerDirectory: directory, fileSystem: PosixFileSystem(), encryption: nil)
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
        do throws(JournalError) {
            let journal = try Journal.open(at: directory.appending(Ledger.journalDirectoryName), options: JournalOptions(durability: .synchronous))
            do throws(JournalError) {
                for frame in frames { _ = try await journal.append(frame) }
            } catch {
                try? journal.close()
                throw error
            }
            try journal.close()
        } catch {
            throw .journal(error)
        }
    }

    /// The restored ledger must audit clean before it is moved into place.
    private static func audit(_ directory: FilePath) throws(InterchangeError) {
        let report: AuditReport
        do {
            report = try LedgerAudit.audit(at: directory)
        } catch {
            throw InterchangeError(code: "backupInvalid", message: "the restored ledger cannot be audited: \(error)")
        }
        guard report.isClean else {
            let problems = report.problems.prefix(5).map(\.description).joined(separator: "; ")
            throw InterchangeError(code: "backupInvalid", message: "the backup's events do not fold into a valid ledger (\(report.problems.count) problem(s)): \(problems); nothing was restored")
        }
    }

    /// Syncs `temporary`, renames it to `directory` and syncs the parent.
    private static func moveIntoPlace(_ temporary: FilePath, _ directory: FilePath) throws(InterchangeError) {
        let fileSystem = PosixFileSystem()
        let parent = directory.removingLastComponent()
        do {
            try fileSystem.synchronizeDirectory(at: temporary)
            try fileSystem.rename(from: temporary, to: directory)
            try fileSystem.synchronizeDirectory(at: parent.isEmpty ? "." : parent)
        } catch {
            if error == .directoryNotEmpty || error == .fileExists {
                throw InterchangeError(code: "restoreTargetNotEmpty", message: "\(directory.string) was filled while restoring; nothing was restored")
            }
            throw InterchangeError(code: "ioFailure", message: "cannot move the restored ledger to \(directory.string): \(error)")
        }
    }
}
