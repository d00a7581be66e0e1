import SystemPackage

/// Where in a journal something was found: the segment file, the byte offset inside it and,
/// when known, the sequence number of the first record of the frame at that offset.
public struct JournalLocation: Sendable, Hashable, CustomStringConvertible {
    /// The segment's file name, e.g. `00000000000000000001.segment`.
    public var segment: String
    /// The byte offset inside the segment file.
    public var offset: Int64
    /// The sequence number expected or found at that offset, when known.
    public var sequenceNumber: UInt64?

    /// Creates a location.
    public init(segment: String, offset: Int64, sequenceNumber: UInt64? = nil) {
        self.segment = segment
        self.offset = offset
        self.sequenceNumber = sequenceNumber
    }

    public var description: String {
        var text = "segment \(segment), offset \(offset)"
        if let sequenceNumber { text += ", sequence \(sequenceNumber)" }
        return text
    }
}

/// Every error the journal throws. Each case has a stable `code` for programs and a
/// `description` a person can act on; journal problems carry their location.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process (or another `Journal` in this one) holds the writer lock.
    case journalLocked(directory: String)
    /// Damage that is not a torn tail: the journal cannot be opened for writing.
    case corruption(JournalProblem)
    /// The directory holds no journal and the options did not allow creating one.
    case journalNotFound(directory: String)
    /// An operating-system call failed.
    case ioFailure(operation: String, path: String, errno: Int32)
    /// The disk is full; nothing of the failed append was kept.
    case diskFull(path: String)
    /// One record is larger than `JournalLimits.recordBytesMax`.
    case recordTooLarge(bytes: Int, limit: Int)
    /// One batch is larger than `JournalLimits.frameBytesMax` or has too many records.
    case frameTooLarge(bytes: Int, records: Int, bytesLimit: Int, recordsLimit: Int)
    /// `append` was called with no records.
    case emptyBatch
    /// Options outside what the format supports.
    case invalidOptions(String)
    /// A sync failed earlier; the journal no longer knows what is on disk and must be reopened.
    case journalFailed(reason: String)
    /// The journal was closed.
    case closed
    /// A sequence number beyond the end of the journal was asked for.
    case sequenceOutOfRange(requested: UInt64, last: UInt64)
    /// The segment was written with a keyed (HMAC) chain and no key, or the wrong key, was given.
    case chainKeyMismatch(segment: String)
    /// An encrypted frame needs a key id that was not given.
    case encryptionKeyMissing(keyID: UInt16, location: JournalLocation)
    /// An encrypted frame does not decrypt with the given key: wrong key, or altered ciphertext.
    case wrongEncryptionKey(keyID: UInt16, location: JournalLocation)
    /// The journal ends before what other files of the ledger prove was acknowledged (a
    /// checkpoint, the personal-key store): acknowledged records are missing. Never repaired
    /// automatically; see `tally repair`.
    case journalShorterThanEvidence(lastSequenceNumber: UInt64, evidence: JournalEvidence)
    /// A path the journal or ledger reads or writes is not a regular file (a symbolic link, a
    /// FIFO, a device, a socket or a directory): it is refused instead of followed or blocked on.
    case notARegularFile(path: String)
    /// The folder this writer locked was moved or replaced while it held it open (a sync,
    /// backup or restore tool renamed it and put a copy in its place): the path no longer names
    /// what this writer writes to, so nothing more is acknowledged (issue 29).
    case folderReplaced(directory: String)

    /// A stable identifier for programs and logs.
    public var code: String {
        switch self {
        case .journalLocked: "journalLocked"
        case .corruption: "journalCorrupted"
        case .journalNotFound: "journalNotFound"
        case .ioFailure: "ioFailure"
        case .diskFull: "diskFull"
        case .recordTooLarge: "recordTooLarge"
        case .frameTooLarge: "frameTooLarge"
        case .emptyBatch: "emptyBatch"
        case .invalidOptions: "invalidOptions"
        case .journalFailed: "journalFailed"
        case .closed: "journalClosed"
        case .sequenceOutOfRange: "sequenceOutOfRange"
        case .chainKeyMismatch: "chainKeyMismatch"
        case .encryptionKeyMissing: "encryptionKeyMissing"
        case .wrongEncryptionKey: "wrongEncryptionKey"
        case .journalShorterThanEvidence: "journalShorterThanEvidence"
        case .notARegularFile: "notARegularFile"
        case .folderReplaced: "folderReplaced"
        }
    }

    public var description: String {
        switch self {
        case .journalLocked(let directory):
            "journalLocked: \(directory) is open for writing by another process or ledger; close it first or open read-only"
        case .corruption(let problem):
            "journalCorrupted: \(problem); the journal cannot be opened for writing. Run `tally audit` to see every problem; a read-only open serves the records before it"
        case .journalNotFound(let directory):
            "journalNotFound: \(directory) holds no journal segments; create one with createIfMissing"
        case .ioFailure(let operation, let path, let errno):
            "ioFailure: \(operation) on \(path) failed: \(Errno(rawValue: errno))"
        case .diskFull(let path):
            "diskFull: no space left while writing \(path); nothing of this append was kept. Free space and retry"
        case .recordTooLarge(let bytes, let limit):
            "recordTooLarge: a record of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case .frameTooLarge(let bytes, let records, let bytesLimit, let recordsLimit):
            "frameTooLarge: a batch of \(records) records and \(bytes) bytes exceeds the limit of \(recordsLimit) records or \(bytesLimit) bytes; split it"
        case .emptyBatch:
            "emptyBatch: append needs at least one record"
        case .invalidOptions(let reason):
            "invalidOptions: \(reason)"
        case .journalFailed(let reason):
            "journalFailed: \(reason); close and reopen the journal (recovery keeps every acknowledged record)"
        case .closed:
            "journalClosed: the journal was closed"
        case .sequenceOutOfRange(let requested, let last):
            "sequenceOutOfRange: sequence \(requested) is past the end of the journal (last is \(last))"
        case .chainKeyMismatch(let segment):
            "chainKeyMismatch: \(segment) was written with a keyed hash chain; open it with the same chain key"
        case .encryptionKeyMissing(let keyID, let location):
            "encryptionKeyMissing: the frame at \(location) is encrypted with key id \(keyID); supply that key (JournalEncryption)"
        case .wrongEncryptionKey(let keyID, let location):
            "wrongEncryptionKey: the frame at \(location) does not decrypt with key id \(keyID): the key is wrong or the data was altered"
        case .journalShorterThanEvidence(let last, let evidence):
            "journalShorterThanEvidence: the journal ends at sequence \(last), but \(evidence.source) proves sequence \(evidence.lastSequenceNumber) was acknowledged: records \(last + 1)...\(evidence.lastSequenceNumber) are missing (the journal was truncated, emptied or replaced). Restore the journal from a backup; `tally repair` can accept the loss explicitly"
        case .folderReplaced(let directory):
            "folderReplaced: \(directory) was moved or replaced while this writer held it open (a sync, backup or restore tool?); nothing written after that is acknowledged. Close this ledger, check which folder is the ledger, and open it again"
        case .notARegularFile(let path):
            "notARegularFile: \(path) is not a regular file (a symbolic link, FIFO, device, socket or directory); ledger files are never followed or read through special files. Replace it with the original file"
        }
    }
}
