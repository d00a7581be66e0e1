/// A record read back from the journal: opaque payload bytes with their position and tags.
public struct JournalRecord: Sendable, Hashable {
    /// The record's position in the journal, starting at 1, without gaps.
    public var sequenceNumber: UInt64
    /// When the host recorded it, milliseconds since the Unix epoch, UTC.
    public var recordedAtMilliseconds: Int64
    /// The caller's type tag (the journal does not interpret it).
    public var typeTag: UInt32
    /// The caller's schema version for the type tag.
    public var schemaVersion: UInt16
    /// The payload bytes. A slice of the frame's buffer: no copy per record.
    public var payload: ArraySlice<UInt8>

    /// Creates a record.
    public init(
        sequenceNumber: UInt64, recordedAtMilliseconds: Int64, typeTag: UInt32,
        schemaVersion: UInt16, payload: ArraySlice<UInt8>
    ) {
        self.sequenceNumber = sequenceNumber
        self.recordedAtMilliseconds = recordedAtMilliseconds
        self.typeTag = typeTag
        self.schemaVersion = schemaVersion
        self.payload = payload
    }
}

/// A record to append: the journal assigns its sequence number.
public struct NewRecord: Sendable, Hashable {
    /// When the host recorded it, milliseconds since the Unix epoch, UTC.
    public var recordedAtMilliseconds: Int64
    /// The caller's type tag.
    public var typeTag: UInt32
    /// The caller's schema version for the type tag.
    public var schemaVersion: UInt16
    /// The payload bytes.
    public var payload: [UInt8]

    /// Creates a record to append.
    public init(recordedAtMilliseconds: Int64, typeTag: UInt32, schemaVersion: UInt16, payload: [UInt8]) {
        self.recordedAtMilliseconds = recordedAtMilliseconds
        self.typeTag = typeTag
        self.schemaVersion = schemaVersion
        self.payload = payload
    }
}

/// What one `append` wrote: the sequence numbers of its records and the chain value after it.
public struct AppendReceipt: Sendable, Hashable {
    /// The sequence number of the batch's first record.
    public var firstSequenceNumber: UInt64
    /// The sequence number of the batch's last record.
    public var lastSequenceNumber: UInt64
    /// The hash-chain value after this frame.
    public var chainValue: ChainValue
}
