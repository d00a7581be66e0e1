/// Where a household's history ends on the server: the sequence number of its last record and
/// the record chain value after it (Docs/Sync.md, "The unit that travels").
///
/// A new household's head is sequence number 0 with the genesis chain it was created with.
public struct HistoryHead: Sendable, Hashable {
    /// The sequence number of the household's last committed record (0 before the first).
    public var sequenceNumber: UInt64
    /// The record chain value after that record (the genesis chain before the first).
    public var chain: [UInt8]

    /// Creates a head.
    public init(sequenceNumber: UInt64, chain: [UInt8]) {
        self.sequenceNumber = sequenceNumber
        self.chain = chain
    }
}
