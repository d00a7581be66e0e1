/// Size limits, checked when writing and (against the format's hard maxima) when reading, so
/// that hostile lengths in a damaged file never cause huge allocations.
public struct JournalLimits: Sendable, Hashable {
    /// The largest payload of one record, in bytes.
    public var recordBytesMax: Int
    /// The largest uncompressed payload of one frame (one `append`), in bytes.
    public var frameBytesMax: Int
    /// The most records one frame may hold.
    public var recordsPerFrameMax: Int

    /// The format's hard maximum for `recordBytesMax` (16 MiB).
    public static let recordBytesHardMax = 16 << 20
    /// The format's hard maximum for `frameBytesMax` (64 MiB); readers never allocate more.
    public static let frameBytesHardMax = 64 << 20
    /// The format's hard maximum for `recordsPerFrameMax`.
    public static let recordsPerFrameHardMax = 1 << 20

    /// Defaults: 1 MiB per record, 16 MiB and 100,000 records per frame.
    public static let `default` = JournalLimits(
        recordBytesMax: 1 << 20, frameBytesMax: 16 << 20, recordsPerFrameMax: 100_000)

    /// Creates limits; `validate()` checks them against the hard maxima.
    public init(recordBytesMax: Int, frameBytesMax: Int, recordsPerFrameMax: Int) {
        self.recordBytesMax = recordBytesMax
        self.frameBytesMax = frameBytesMax
        self.recordsPerFrameMax = recordsPerFrameMax
    }

    func validate() throws(JournalError) {
        guard (1...Self.recordBytesHardMax).contains(recordBytesMax) else {
            throw .invalidOptions("recordBytesMax must be 1...\(Self.recordBytesHardMax), got \(recordBytesMax)")
        }
        guard (1...Self.frameBytesHardMax).contains(frameBytesMax) else {
            throw .invalidOptions("frameBytesMax must be 1...\(Self.frameBytesHardMax), got \(frameBytesMax)")
        }
        guard (1...Self.recordsPerFrameHardMax).contains(recordsPerFrameMax) else {
            throw .invalidOptions("recordsPerFrameMax must be 1...\(Self.recordsPerFrameHardMax), got \(recordsPerFrameMax)")
        }
    }
}
