import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel

extension LedgerBackup {
    /// Writes the backup into `directory`, atomically, through the engine: the directory must
    /// not exist or be empty, and afterwards it holds either the whole restored ledger or nothing.
    ///
    /// First the document's integrity is verified (``verifyIntegrity(acceptingUnverifiedFormat:)``:
    /// at least one record, sequence numbers contiguous from 1 up to the declared
    /// ``lastSequenceNumber``, and for version 3 every record's chain value, the trailer and the
    /// checksum), then every record is decoded. `Ledger.restore(frames:personalKeys:forgottenPeople:into:)`
    /// then builds the ledger beside the target (`LedgerDirectory.restoring`), writes the keys and
    /// each batch as one journal frame, audits it (`LedgerAudit`) and renames it into place only
    /// when the audit is clean; on any failure nothing exists at `directory`, so a retry starts
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
        var options = RestoreOptions()
        options.acceptingUnverifiedFormat = acceptingUnverifiedFormat
        try await restore(into: directory, options: options)
    }

    /// How ``restore(into:options:)`` restores.
    public struct RestoreOptions: Sendable {
        /// Restore a version 1 or 2 document (no chain, no checksum).
        public var acceptingUnverifiedFormat = false
        /// Opens the sealed personal keys of a version 4 backup (its passphrase or key).
        public var unlock: BackupKeyUnlock?
        /// Encryption at rest of the restored ledger (`LedgerOptions.encryption`); nil writes it
        /// unencrypted. When replacing an encrypted ledger it must be given (the replaced
        /// ledger's key file must open with it), so a restore never leaves a ledger in clear
        /// that was encrypted.
        public var encryption: JournalEncryption?
        /// Replace the ledger at the target (seed 001 US-703), after the backup verified and
        /// the restored ledger audited clean; the old one is kept beside it (`<name>.replaced-N`).
        public var replacingExisting = false
        /// Restore a backup that holds no keys (`personalKeyProtection: none`) although some
        /// of its people's keys cannot be found (not in a replaced ledger): their names and
        /// notes are restored unreadable, as a forgotten person's (P3), for good.
        public var acceptingUnreadableTexts = false
        /// Every file operation of the restore goes through it (tests inject faults and
        /// crashes into the swap); default POSIX.
        public var fileSystem: any FileSystem = PosixFileSystem()
        /// A ledger whose key ring counts as the replaced one's without replacing it (a merge's
        /// target): a backup without keys takes its holders' keys from it, and people forgotten
        /// there stay forgotten (P3).
        var keysFromLedger: FilePath?

        public init() {}
    }

    /// What a restore did, beyond restoring.
    public struct RestoreReport: Sendable, Equatable {
        /// Where the replaced ledger was kept (``RestoreOptions/replacingExisting``).
        public var replacedLedgerKeptAt: FilePath?
        /// The backup held the personal keys in clear (format 2 or 3): delete it and make a
        /// new one (`tally export --format json` with a passphrase or key file).
        public var keysWereInClear = false
        /// People whose keys came from the replaced ledger (a backup without keys).
        public var keysTakenFromReplacedLedger: [PersonID] = []
        /// People whose names and notes were restored unreadable (no key anywhere).
        public var unreadablePeople: [PersonID] = []
        /// People forgotten in the replaced ledger whose keys the backup still held: they stay
        /// forgotten (the keys were not installed).
        public var keptForgotten: [PersonID] = []
        /// What the restore did first about a restore or reset a crash had interrupted at the
        /// target (`Ledger.recoverInterruptedSwap`): usually nothing (nil before it ran).
        public var settledSwap: SwapRecovery?
    }

    /// Writes the backup into `directory` as ``restore(into:acceptingUnverifiedFormat:)``
    /// says, with the options: the keys opened with ``RestoreOptions/unlock``, the ledger
    /// encrypted at rest with ``RestoreOptions/encryption``, an existing ledger replaced when
    /// ``RestoreOptions/replacingExisting`` is set.
    ///
    /// Keys: a version 4 backup's sealed keys are opened with the unlock (nothing is written
    /// before they open). A backup without keys takes the keys of its key holders from the
    /// ledger it replaces; holders with no key there make the restore fail with
    /// `backupKeysOmitted` unless ``RestoreOptions/acceptingUnreadableTexts`` is set. When
    /// replacing, people forgotten in the replaced ledger stay forgotten.
    ///
    /// - Throws: everything ``restore(into:acceptingUnverifiedFormat:)`` throws, and
    ///   `backupKeyRequired`, `backupKeyKindMismatch`, `backupKeyWrong`, `backupKeyInvalid`,
    ///   `backupKeysOmitted`, `restoreWouldDecrypt` (replacing an encrypted ledger without its
    ///   key), `wrongEncryptionKey`, `replaceRefused` (the ledger is open for writing).
    @discardableResult
    public func restore(into directory: FilePath, options: RestoreOptions) async throws(InterchangeError) -> RestoreReport {
        try verifyIntegrity(acceptingUnverifiedFormat: options.acceptingUnverifiedFormat)
        let frames = try validatedFrames()
        var report = RestoreReport()
        // A restore or reset a crash interrupted at the target is finished first (its record
        // proves the new ledger complete), so what the target holds is known.
        do throws(LedgerError) {
            report.settledSwap = try LedgerSwap.recover(LedgerDirectory(directory), fileSystem: options.fileSystem, rebuilding: true)
        } catch {
            throw InterchangeError(code: error.code, message: "\(error.message); nothing was restored")
        }
        let holdsLedger = LedgerDirectory(directory).holdsLedger(fileSystem: options.fileSystem)
        guard options.replacingExisting || !holdsLedger else {
            throw InterchangeError(code: "restoreTargetNotEmpty", message: "\(directory) holds a ledger; a restore replaces it only when asked (tally import backup --replace, RestoreOptions.replacingExisting), keeping it beside as \(LedgerDirectory(directory).path.lastComponent?.string ?? "ledger")\(LedgerDirectory.replacedSuffix)N; nothing was changed")
        }
        let replaced = options.replacingExisting && holdsLedger
        var existing: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>)?
        if let keySource = replaced ? directory : options.keysFromLedger {
            existing = try Self.keysOfLedger(at: keySource, encryption: options.encryption)
        }
        var keys = try validatedKeys(options: options, existing: existing, report: &report)
        if let existing {
            report.keptForgotten = keys.keys.keys.filter { existing.forgotten.contains($0) }.sorted()
            for person in report.keptForgotten { keys.keys[person] = nil }
            keys.forgotten.formUnion(report.keptForgotten)
        }
        do {
            report.replacedLedgerKeptAt = try await Ledger.restore(
                frames: frames, personalKeys: keys.keys, forgottenPeople: keys.forgotten, into: directory,
                encryption: options.encryption, replacing: options.replacingExisting, fileSystem: options.fileSystem)
        } catch .restoredLedgerInvalid(let problems) {
            throw InterchangeError(code: "backupInvalid", message: "the backup's events do not fold into a valid ledger (\(problems.count) problem(s)): \(problems.prefix(5).joined(separator: "; ")); nothing was restored")
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
        return report
    }

    /// The key ring of the ledger a restore replaces, read with `encryption`.
    static func keysOfLedger(
        at directory: FilePath, encryption: JournalEncryption?
    ) throws(InterchangeError) -> (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>) {
        do {
            return try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: PosixFileSystem(), encryption: encryption, readOnly: true).snapshot
        } catch .storage(let error) where error.code == "encryptionKeyMissing" {
            throw InterchangeError(code: "restoreWouldDecrypt", message: "the ledger at \(directory) is encrypted at rest; give its key (--key-file FILE or $TALLY_KEY) so the restored ledger is encrypted with it too; nothing was changed")
        } catch {
            throw InterchangeError(code: error.code, message: "the ledger being replaced, \(directory): \(error.message); nothing was changed")
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

    /// The personal keys and forgotten people: in clear (versions 2 and 3), opened from the
    /// sealed keys, or, for a backup without keys, from the replaced ledger's key ring.
    private func validatedKeys(
        options: RestoreOptions, existing: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>)?,
        report: inout RestoreReport
    ) throws(InterchangeError) -> (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>) {
        var forgotten: Set<PersonID> = []
        for id in forgottenPeople ?? [] {
            guard let person = try? PersonID(parsing: id) else {
                throw InterchangeError(code: "backupInvalid", message: "forgotten person \(id) is not an id")
            }
            forgotten.insert(person)
        }
        guard formatVersion >= 4 else {
            report.keysWereInClear = !(personalKeys ?? [:]).isEmpty
            return (try Self.parseKeys(personalKeys ?? [:]), forgotten)
        }
        var holders: Set<PersonID> = []
        for id in personalKeyHolders ?? [] {
            guard let person = try? PersonID(parsing: id) else {
                throw InterchangeError(code: "backupInvalid", message: "personal key holder \(id) is not an id")
            }
            holders.insert(person)
        }
        if let sealedPersonalKeys {
            let keys = try openSealedKeys(sealedPersonalKeys, unlock: options.unlock)
            guard Set(keys.keys) == holders else {
                throw InterchangeError(code: "backupInvalid", message: "the sealed keys are for \(keys.count) people but personalKeyHolders names \(holders.count); the backup was altered; restore from an unaltered backup")
            }
            return (keys, forgotten)
        }
        // A backup without keys: take them from the ledger being replaced.
        var keys: [PersonID: [UInt8]] = [:]
        for person in holders.sorted() {
            if let key = existing?.keys[person] {
                keys[person] = key
                report.keysTakenFromReplacedLedger.append(person)
            } else if existing?.forgotten.contains(person) == true {
                forgotten.insert(person)
            } else {
                report.unreadablePeople.append(person)
            }
        }
        if !report.unreadablePeople.isEmpty {
            guard options.acceptingUnreadableTexts else {
                throw InterchangeError(code: "backupKeysOmitted", message: "this backup was made without personal keys (personalKeyProtection none) and \(report.unreadablePeople.count) of its \(holders.count) people have no key \(existing == nil ? "here" : "in the ledger it replaces"): restore it over the ledger that still has the keys (--replace), or accept that their names and notes are restored unreadable, for good (--accept-unreadable-texts); nothing was restored")
            }
            // Recorded as forgotten: their texts read as redacted, as after P3.
            forgotten.formUnion(report.unreadablePeople)
        }
        return (keys, forgotten)
    }
}
