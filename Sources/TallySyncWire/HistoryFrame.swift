/// One committed unit of a household's history: the records of sequence numbers
/// `firstSequenceNumber...lastSequenceNumber`, opaque to the server's storage, and the record
/// chain value after the last of them.
///
/// The storage never looks inside `records`: the engine writes them (the backup's canonical
/// records, grouped by frame) and devices read them. It checks only that frames continue one
/// another.
public struct HistoryFrame: Sendable, Hashable {
    /// The sequence number of the frame's first record (the previous frame's last + 1).
    public var firstSequenceNumber: UInt64
    /// The sequence number of the frame's last record (at least `firstSequenceNumber`).
    public var lastSequenceNumber: UInt64
    /// The frame's records, as the engine encoded them.
    public var records: [UInt8]
    /// The record chain value after the frame's last record.
    public var chain: [UInt8]

    /// Creates a frame.
    public init(firstSequenceNumber: UInt64, lastSequenceNumber: UInt64, records: [UInt8], chain: [UInt8]) {
        self.firstSequenceNumber = firstSequenceNumber
        self.lastSequenceNumber = lastSequenceNumber
        self.records = records
        self.chain = chain
    }
}
