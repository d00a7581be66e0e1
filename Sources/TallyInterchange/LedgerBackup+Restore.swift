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
        try verifyIntegrity(acceptingUnverifiedFormat: acceptingUnverifiedFormat)
        let frames = try validatedFrames()
        let keys = try validatedKeys()
        do {
            try await Ledger.restore(frames: frames, personalKeys: keys.keys, forgottenPeople: keys.forgotten, into: directory)
        } catch .restoredLedgerInvalid(let problems) {
            throw InterchangeError(code: "backupInvalid", message: "the backup's events do not fold into a valid ledger (\(problems.count) problem(s)): \(problems.prefix(5).joined(separator: "; ")); nothing was restored")
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
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
}
