import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel

/// JSON backup of a whole ledger (seed 001 US-702): a versioned document holding every
/// journal record, frame by frame, so that a restore into an empty ledger reproduces the same
/// events, the same batches and therefore identical replayed read models.
///
/// Records are stored as their encoded event bytes (base64) with tag, schema version and
/// `recordedAt`; each is also described by its type name for people reading the file. Since
/// version 3 each record carries its link of a hash chain (the journal's `HashChain`) and the
/// document an ``Integrity`` trailer (event count, final chain value, checksum over the whole
/// document), so the restore refuses a document that was cut, edited or damaged, naming the
/// record. The restore verifies and decodes every record before writing anything.
///
/// Names and notes stay sealed in the records (P1). The personal keys that open them are never
/// in clear (version 4, ``BackupKeyProtection``): sealed under a passphrase (scrypt) or a key
/// the user supplies, or left out (`personalKeyProtection: "none"`); ``personalKeyHolders``
/// names who has a key, ``forgottenPeople`` whose texts no backup can bring back. A backup made
/// before someone was forgotten still holds their key: delete such backups (Docs/Security.md).
/// Version 2 and 3 documents held the keys in clear (``personalKeys``); they still restore.
public struct LedgerBackup: Codable, Sendable, Equatable {
    /// The document format; readers refuse versions they do not know. Version 2 added the
    /// personal keys, version 3 the hash chain and the integrity trailer, version 4 sealed
    /// (or left out) the keys. Version 1 and 2 documents restore only when the caller accepts
    /// that they cannot be verified.
    public static let currentFormatVersion = 4

    /// The value of ``format``.
    public static let formatName = "tally.backup"

    /// One journal record.
    public struct Record: Codable, Sendable, Equatable {
        /// The record's sequence number (contiguous from 1 across the document).
        public var sequenceNumber: UInt64
        /// `recordedAtMilliseconds` as ISO 8601, for people reading the file.
        public var recordedAt: String
        /// When the event was recorded, in milliseconds since 1970 (UTC).
        public var recordedAtMilliseconds: Int64
        /// The event type's name, for people reading the file.
        public var type: String
        /// The event's tag (`EventTag`).
        public var tag: UInt32
        /// The payload's schema version.
        public var schemaVersion: UInt16
        /// The encoded event bytes, base64.
        public var payload: String
        /// The hash chain after this record (64 hex digits; version 3).
        public var chainValue: String?
    }

    /// One journal frame: records appended together (one atomic batch).
    public struct Batch: Codable, Sendable, Equatable {
        /// The frame's records, in order.
        public var records: [Record]
    }

    /// Always ``formatName``.
    public var format: String
    /// The document version (``currentFormatVersion`` when made by this build).
    public var formatVersion: Int
    /// The household's name, for people reading the file.
    public var household: String?
    /// The household's base currency code, for people reading the file.
    public var baseCurrency: String?
    /// The declared end: the last record's sequence number. The restore refuses a document
    /// whose records end elsewhere.
    public var lastSequenceNumber: UInt64
    /// Every journal frame, in order.
    public var batches: [Batch]
    /// Personal keys by person id, as hex, in clear (versions 2 and 3 only; never written now).
    public var personalKeys: [String: String]?
    /// How the personal keys are held (version 4): `passphrase`, `key` (a user-supplied key
    /// file) or `none` (the backup holds no keys).
    public var personalKeyProtection: String?
    /// The people who had a key when the backup was made, by id (version 4): whose names and
    /// notes the keys open.
    public var personalKeyHolders: [String]?
    /// The keys, sealed (version 4; absent when `personalKeyProtection` is `none`).
    public var sealedPersonalKeys: SealedKeys?
    /// The people forgotten, by id (version 2).
    public var forgottenPeople: [String]?
    /// Event count, final chain value and checksum (version 3).
    public var integrity: Integrity?

    /// Reads every frame of the ledger in `directory` (read-only) and seals the document
    /// (hash chain and integrity trailer, the personal keys as `protection` says), then
    /// verifies it as a restore would.
    ///
    /// - Throws: `InterchangeError`: `personalKeys` (texts whose keys are missing),
    ///   `backupEmpty` (the ledger has no events), `backupKeyInvalid` (a key not 32 bytes),
    ///   `backupPassphraseEmpty`, a journal code when it cannot be read.
    public static func make(
        from directory: FilePath, encryption: JournalEncryption? = nil, protection: BackupKeyProtection
    ) throws(InterchangeError) -> LedgerBackup {
        let history = try LedgerHistory.load(at: directory, encryption: encryption)
        guard history.unreadablePersonalTexts == 0 else {
            throw InterchangeError(code: "personalKeys", message: "\(history.unreadablePersonalTexts) personal text(s) cannot be opened (keys missing from \(LedgerDirectory.personalKeysName)); restore that file before making a backup, or the backup would not restore them")
        }
        var batches: [Batch] = []
        do {
            let reader = try JournalReader.open(at: LedgerDirectory(directory).journal, encryption: encryption)
            // The frames the history read, no more: a writer may append between the two reads.
            try reader.forEachFrame { frame in
                guard frame.lastSequenceNumber <= history.lastSequenceNumber else { return false }
                batches.append(Batch(records: frame.records.map { record in
                    let tagName = EventTag(rawValue: record.typeTag).map { String(describing: $0) } ?? "unknown"
                    return Record(
                        sequenceNumber: record.sequenceNumber,
                        recordedAt: Timestamp(millisecondsSinceEpoch: record.recordedAtMilliseconds).iso8601,
                        recordedAtMilliseconds: record.recordedAtMilliseconds, type: tagName, tag: record.typeTag,
                        schemaVersion: record.schemaVersion, payload: Data(record.payload).base64EncodedString())
                }))
                return true
            }
        } catch let error as JournalError {
            throw .journal(error)
        } catch {
            throw InterchangeError(code: "journalUnreadable", message: "\(error)")
        }
        let keys: (keys: [PersonID: [UInt8]], forgotten: Set<PersonID>)
        do {
            keys = try PersonalKeyRing.load(ledgerDirectory: directory, fileSystem: PosixFileSystem(), encryption: encryption, readOnly: true).snapshot
        } catch {
            throw InterchangeError(code: error.code, message: error.message)
        }
        let forgotten = keys.forgotten.union(history.state.forgottenPeople)
        // A forgetting a crash left unfinished (key not destroyed yet) still forgets here.
        let held = keys.keys.filter { !forgotten.contains($0.key) }
        let sealedKeys = try seal(keys: held, protection: protection)
        let backup = LedgerBackup(
            format: formatName, formatVersion: currentFormatVersion, household: history.state.household?.name,
            baseCurrency: history.state.household?.baseCurrency.code, lastSequenceNumber: history.lastSequenceNumber,
            batches: batches, personalKeys: nil, personalKeyProtection: protection.manifestName,
            personalKeyHolders: held.keys.map(\.description).sorted(),
            sealedPersonalKeys: sealedKeys,
            forgottenPeople: forgotten.map(\.description).sorted()).sealed()
        // Checked in pairs (STYLE 6): what a restore will verify is verified before it is written.
        try backup.verifyIntegrity()
        return backup
    }

    /// The document as pretty, key-sorted JSON.
    ///
    /// - Throws: `InterchangeError` with code `backupUnwritable`.
    public func encoded() throws(InterchangeError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch { throw InterchangeError(code: "backupUnwritable", message: "\(error)") }
    }

    /// Reads a document: JSON with a known format and version. Integrity is checked by
    /// ``restore(into:acceptingUnverifiedFormat:)``, before anything is written.
    ///
    /// - Throws: `InterchangeError` with code `backupUnreadable` or `backupVersionUnknown`.
    public static func decode(_ data: Data) throws(InterchangeError) -> LedgerBackup {
        let backup: LedgerBackup
        do { backup = try JSONDecoder().decode(LedgerBackup.self, from: data) } catch {
            throw InterchangeError(code: "backupUnreadable", message: "not a tally backup: \(error)")
        }
        guard backup.format == formatName, (1...currentFormatVersion).contains(backup.formatVersion) else {
            throw InterchangeError(code: "backupVersionUnknown", message: "format \(backup.format) version \(backup.formatVersion); this build reads tally.backup version \(currentFormatVersion) (and 3, and, unverified, 1 and 2); use the build that wrote it")
        }
        return backup
    }
}
