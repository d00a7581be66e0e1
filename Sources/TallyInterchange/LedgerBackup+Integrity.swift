import TallyJournal

extension LedgerBackup {
    /// The integrity trailer of a version 3 document: what the document declares it holds,
    /// so that a cut, an edit or a flipped bit anywhere is refused instead of restored.
    ///
    /// With ``LedgerBackup/lastSequenceNumber`` (the declared end) it is the backup's manifest.
    public struct Integrity: Codable, Sendable, Equatable {
        /// How many records the document holds.
        public var eventCount: UInt64
        /// The chain value after the last record (64 hex digits).
        public var finalChainValue: String
        /// SHA-256 over the final chain value and the canonical bytes of every field that is
        /// not a record (format, household, declared end, count, batch sizes, personal keys,
        /// forgotten people; version 4: the key manifest and sealed keys), 64 hex digits.
        public var checksum: String
    }

    /// The journal's hash chain, unkeyed: every link is SHA-256.
    private static let hashChain = HashChain(key: nil)

    /// This document with every record's ``Record/chainValue`` and the ``integrity`` trailer
    /// computed from its content (format version 3 or later; tests make version 3 documents).
    func sealed(formatVersion version: Int = Self.currentFormatVersion) -> LedgerBackup {
        var copy = self
        copy.formatVersion = version
        var chain = ChainValue.genesis
        var count: UInt64 = 0
        for batchIndex in copy.batches.indices {
            for recordIndex in copy.batches[batchIndex].records.indices {
                chain = Self.link(after: chain, record: copy.batches[batchIndex].records[recordIndex], batchIndex: batchIndex)
                copy.batches[batchIndex].records[recordIndex].chainValue = chain.description
                count += 1
            }
        }
        copy.integrity = Integrity(eventCount: count, finalChainValue: chain.description, checksum: "")
        let checksum = copy.computedChecksum(finalChainValue: chain)
        copy.integrity?.checksum = checksum.description
        return copy
    }

    /// Checks that the document holds what it declares, before anything is decoded or written.
    ///
    /// Every version: at least one record, sequence numbers contiguous from 1, the last one
    /// equal to the declared ``lastSequenceNumber``. Version 3 also: each record's chain value,
    /// the trailer's count and final chain value, and the checksum. A version 1 or 2 document
    /// has no chain or checksum; it passes only when `acceptingUnverifiedFormat` is set.
    ///
    /// - Throws: `InterchangeError` with code `backupEmpty`, `backupInvalid` (sequence numbers
    ///   not contiguous), `backupTruncated` (records end before or after the declared end),
    ///   `backupUnverified` (version 1 or 2 without the flag), `backupIntegrityMissing`,
    ///   `backupChainMismatch` (naming the first record whose content does not match),
    ///   `backupTrailerMismatch` or `backupChecksumMismatch`.
    func verifyIntegrity(acceptingUnverifiedFormat: Bool = false) throws(InterchangeError) {
        let records = batches.flatMap(\.records)
        guard let last = records.last else {
            throw InterchangeError(code: "backupEmpty", message: "the backup holds no events (it declares events through \(lastSequenceNumber)); it is cut or not a backup of a ledger; restore from a complete backup")
        }
        for (index, record) in records.enumerated() where record.sequenceNumber != UInt64(index) + 1 {
            throw InterchangeError(code: "backupInvalid", message: "record \(record.sequenceNumber) follows \(index); sequence numbers must be contiguous from 1")
        }
        guard last.sequenceNumber == lastSequenceNumber else {
            let detail = last.sequenceNumber < lastSequenceNumber
                ? "events \(last.sequenceNumber + 1) to \(lastSequenceNumber) are missing (the file was cut)"
                : "it holds \(last.sequenceNumber - lastSequenceNumber) event(s) past its declared end"
            throw InterchangeError(code: "backupTruncated", message: "the backup declares events through \(lastSequenceNumber) but its records end at \(last.sequenceNumber): \(detail); restore from a complete backup")
        }
        guard formatVersion >= 3 else {
            if acceptingUnverifiedFormat { return }
            throw InterchangeError(code: "backupUnverified", message: "a version \(formatVersion) backup has no checksum or hash chain, so damage in it cannot be detected; export the ledger again with this build (`tally export --format json --passphrase-file FILE`), or, if this file is the only copy, restore it with --accept-unverified-backup")
        }
        guard let integrity else {
            throw InterchangeError(code: "backupIntegrityMissing", message: "a version \(formatVersion) backup must carry `integrity` (eventCount, finalChainValue, checksum); the file was altered; restore from an unaltered backup")
        }
        let chain = try verifiedChain()
        guard integrity.eventCount == UInt64(records.count) else {
            throw InterchangeError(code: "backupTrailerMismatch", message: "the trailer declares \(integrity.eventCount) events but the backup holds \(records.count); the file was altered; restore from an unaltered backup")
        }
        guard integrity.finalChainValue == chain.description else {
            throw InterchangeError(code: "backupTrailerMismatch", message: "the trailer's finalChainValue does not match the chain over the records (ends at \(chain)); the file was altered; restore from an unaltered backup")
        }
        guard integrity.checksum == computedChecksum(finalChainValue: chain).description else {
            throw InterchangeError(code: "backupChecksumMismatch", message: "the checksum does not match the document (format, household, declared end, batches, personal keys or forgotten people changed); the file was altered or damaged; restore from an unaltered backup")
        }
        if formatVersion >= 4 { try verifyKeyManifest() }
    }

    /// Version 4: no key in clear, and the manifest says truthfully what the backup holds.
    private func verifyKeyManifest() throws(InterchangeError) {
        guard personalKeys == nil else {
            throw InterchangeError(code: "backupInvalid", message: "a version \(formatVersion) backup never holds personal keys in clear, but this one has `personalKeys`; it was altered; restore from an unaltered backup")
        }
        switch personalKeyProtection ?? "" {
        case KeyProtectionName.none:
            guard sealedPersonalKeys == nil else {
                throw InterchangeError(code: "backupInvalid", message: "personalKeyProtection is none but the backup holds sealedPersonalKeys; it was altered; restore from an unaltered backup")
            }
        case KeyProtectionName.passphrase, KeyProtectionName.key:
            guard sealedPersonalKeys != nil else {
                throw InterchangeError(code: "backupInvalid", message: "personalKeyProtection is \(personalKeyProtection ?? "") but the backup holds no sealedPersonalKeys; it was altered; restore from an unaltered backup")
            }
        default:
            let given = personalKeyProtection ?? "nothing"
            throw InterchangeError(code: "backupInvalid", message: "a version \(formatVersion) backup must say how it holds the personal keys (personalKeyProtection passphrase, key or none), not \(given)")
        }
    }

    /// Recomputes the chain and compares it with each record's stored value; the first record
    /// that differs is the one whose content (or chain value) changed.
    private func verifiedChain() throws(InterchangeError) -> ChainValue {
        var chain = ChainValue.genesis
        for (batchIndex, batch) in batches.enumerated() {
            for record in batch.records {
                chain = Self.link(after: chain, record: record, batchIndex: batchIndex)
                guard record.chainValue == chain.description else {
                    throw InterchangeError(code: "backupChainMismatch", message: "record \(record.sequenceNumber) (batch \(batchIndex + 1)): its content does not match its chain value; the backup was altered or damaged at sequence \(record.sequenceNumber); restore from an unaltered backup")
                }
            }
        }
        return chain
    }

    /// `H(previous ‖ canonical bytes of the record)`: every field but the chain value, and the
    /// batch the record is in (so moving a record to another batch breaks the chain).
    private static func link(after previous: ChainValue, record: Record, batchIndex: Int) -> ChainValue {
        var header = BackupCanonicalBytes()
        header.append(UInt64(batchIndex))
        header.append(record.sequenceNumber)
        header.append(UInt64(bitPattern: record.recordedAtMilliseconds))
        header.append(UInt64(record.tag))
        header.append(UInt64(record.schemaVersion))
        header.append(record.recordedAt)
        header.append(record.type)
        let payload = Array(record.payload.utf8)
        return header.bytes.withUnsafeBytes { headerBytes in
            payload.withUnsafeBytes { hashChain.next(after: previous, header: headerBytes, payload: $0) }
        }
    }

    /// `H(final chain value ‖ canonical bytes of every field that is not a record)`.
    private func computedChecksum(finalChainValue: ChainValue) -> ChainValue {
        var document = BackupCanonicalBytes()
        document.append(format)
        document.append(UInt64(formatVersion))
        document.append(optional: household)
        document.append(optional: baseCurrency)
        document.append(lastSequenceNumber)
        document.append(integrity?.eventCount ?? 0)
        document.append(integrity?.finalChainValue ?? "")
        document.append(UInt64(batches.count))
        for batch in batches { document.append(UInt64(batch.records.count)) }
        document.append(UInt64(personalKeys?.count ?? 0))
        for (person, key) in (personalKeys ?? [:]).sorted(by: { $0.key < $1.key }) {
            document.append(person)
            document.append(key)
        }
        document.append(optional: personalKeys == nil ? nil : "present")
        document.append(UInt64(forgottenPeople?.count ?? 0))
        for person in forgottenPeople ?? [] { document.append(person) }
        document.append(optional: forgottenPeople == nil ? nil : "present")
        if formatVersion >= 4 {
            // Version 4: the key manifest and the sealed keys (version 3 documents verify as before).
            document.append(optional: personalKeyProtection)
            document.append(UInt64(personalKeyHolders?.count ?? 0))
            for person in personalKeyHolders ?? [] { document.append(person) }
            document.append(optional: sealedPersonalKeys?.cipher)
            document.append(optional: sealedPersonalKeys?.kdf)
            document.append(optional: sealedPersonalKeys?.cost.map { "\($0.logN),\($0.blockSize),\($0.parallelism)" })
            document.append(optional: sealedPersonalKeys?.salt)
            document.append(optional: sealedPersonalKeys?.box)
        }
        return document.bytes.withUnsafeBytes { bytes in
            [UInt8]().withUnsafeBytes { Self.hashChain.next(after: finalChainValue, header: bytes, payload: $0) }
        }
    }
}
