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
/// `recordedAt`; each is also described by its type name for people reading the file. The
/// restore decodes every record before writing anything.
public struct LedgerBackup: Codable, Sendable, Equatable {
    /// The document format; readers refuse versions they do not know.
    public static let currentFormatVersion = 1

    public struct Record: Codable, Sendable, Equatable {
        public var sequenceNumber: UInt64
        public var recordedAt: String
        public var recordedAtMilliseconds: Int64
        public var type: String
        public var tag: UInt32
        public var schemaVersion: UInt16
        public var payload: String
    }

    public struct Batch: Codable, Sendable, Equatable {
        public var records: [Record]
    }

    public var format: String
    public var formatVersion: Int
    public var household: String?
    public var baseCurrency: String?
    public var lastSequenceNumber: UInt64
    public var batches: [Batch]

    /// Reads every frame of the ledger in `directory` (read-only).
    public static func make(from directory: FilePath, encryption: JournalEncryption? = nil) throws(InterchangeError) -> LedgerBackup {
        let history = try LedgerHistory.load(at: directory, encryption: encryption)
        var batches: [Batch] = []
        do {
            let reader = try JournalReader.open(at: directory.appending("journal"), encryption: encryption)
            try reader.forEachFrame { frame in
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
        return LedgerBackup(
            format: "tally.backup", formatVersion: currentFormatVersion, household: history.state.household?.name,
            baseCurrency: history.state.household?.baseCurrency.code, lastSequenceNumber: history.lastSequenceNumber,
            batches: batches)
    }

    /// The document as pretty, key-sorted JSON.
    public func encoded() throws(InterchangeError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch { throw InterchangeError(code: "backupUnwritable", message: "\(error)") }
    }

    /// Reads a document.
    public static func decode(_ data: Data) throws(InterchangeError) -> LedgerBackup {
        let backup: LedgerBackup
        do { backup = try JSONDecoder().decode(LedgerBackup.self, from: data) } catch {
            throw InterchangeError(code: "backupUnreadable", message: "not a tally backup: \(error)")
        }
        guard backup.format == "tally.backup", backup.formatVersion == currentFormatVersion else {
            throw InterchangeError(code: "backupVersionUnknown", message: "format \(backup.format) version \(backup.formatVersion); this build reads tally.backup version \(currentFormatVersion)")
        }
        return backup
    }

    /// Writes the backup into `directory`, which must hold no journal yet. Every record is
    /// decoded first and sequence numbers must be contiguous from 1; then each batch is
    /// appended as one frame.
    public func restore(into directory: FilePath) async throws(InterchangeError) {
        var expected: UInt64 = 1
        var frames: [[NewRecord]] = []
        for batch in batches {
            var records: [NewRecord] = []
            for record in batch.records {
                guard record.sequenceNumber == expected else {
                    throw InterchangeError(code: "backupInvalid", message: "record \(record.sequenceNumber) follows \(expected - 1); sequence numbers must be contiguous")
                }
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
                expected += 1
            }
            if !records.isEmpty { frames.append(records) }
        }
        let journalPath = directory.appending("journal")
        if FileManager.default.fileExists(atPath: journalPath.string),
           let names = try? FileManager.default.contentsOfDirectory(atPath: journalPath.string), names.contains(where: { $0.hasSuffix(".segment") }) {
            throw InterchangeError(code: "restoreTargetNotEmpty", message: "\(directory.string) already holds a journal; restore only into an empty ledger")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory.string, withIntermediateDirectories: true)
        } catch {
            throw InterchangeError(code: "ioFailure", message: "cannot create \(directory.string): \(error)")
        }
        do {
            let journal = try Journal.open(at: journalPath, options: JournalOptions(durability: .synchronous))
            for frame in frames { _ = try await journal.append(frame) }
            try journal.close()
        } catch {
            throw .journal(error)
        }
    }
}
