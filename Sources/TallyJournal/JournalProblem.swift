/// One problem found in a journal: what is wrong and where.
public struct JournalProblem: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of damage the journal recognises.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A segment header with a bad magic, version, checksum or file name.
        case badSegmentHeader
        /// Bytes where a frame header should start do not form a valid header.
        case badFrameHeader
        /// The frame's CRC32C does not match its header and payload.
        case checksumMismatch
        /// The frame ends past the end of the file.
        case truncatedFrame
        /// The frame's stored chain value differs from the recomputed hash chain.
        case chainMismatch
        /// A segment's recorded chain start differs from the previous segment's last value.
        case segmentChainMismatch
        /// Sequence numbers do not continue from the previous frame or segment.
        case sequenceGap
        /// The payload failed to decompress to its declared length.
        case decompressionFailed
        /// The records inside a frame could not be decoded.
        case badRecords
        /// The frame is encrypted with a key id that was not given.
        case encryptionKeyMissing
        /// The frame does not decrypt: wrong key, or the ciphertext was altered.
        case decryptionFailed
        /// Bytes after the last valid frame that do not form a frame (a torn tail).
        case tornTail
        /// Bytes skipped between a damaged frame and the next valid one.
        case unreadableRange
        /// The journal ends before records that other files of the ledger prove were
        /// acknowledged (a checkpoint, the personal-key store).
        case missingRecords
        /// A ledger file that holds personal data or keys can be read by other users.
        case permissionsTooOpen
    }

    /// What is wrong.
    public var kind: Kind
    /// Where it is.
    public var location: JournalLocation
    /// Details a person can act on.
    public var detail: String

    /// Creates a problem.
    public init(kind: Kind, location: JournalLocation, detail: String) {
        self.kind = kind
        self.location = location
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue) at \(location): \(detail)" }
}
