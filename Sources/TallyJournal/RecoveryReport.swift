/// What opening a journal found and did.
public struct RecoveryReport: Sendable, Hashable {
    /// Bytes cut from the end of the last segment (a torn write). Zero when the tail was clean.
    public var bytesDropped: Int64 = 0
    /// Where the cut was made, when bytes were dropped.
    public var truncatedAt: JournalLocation?
    /// Where the cut bytes were kept (`torn/<segment>.from-<offset>` inside the journal
    /// directory), nil when nothing but zeros was cut.
    public var savedTornBytes: String?
    /// Temporary segment files, left by a crash during rotation, that were removed.
    public var removedTemporaryFiles: [String] = []
    /// For a read-only open: a torn tail that is not served, and, when damage is allowed, the
    /// damage that ends the readable prefix and records missing against the evidence.
    public var problems: [JournalProblem] = []
    /// The number of segment files.
    public var segmentCount = 0
    /// The last sequence number in the journal (0 when empty).
    public var lastSequenceNumber: UInt64 = 0

    /// An empty report: nothing repaired.
    public init() {}

    /// True when nothing had to be repaired and nothing is damaged.
    public var isClean: Bool { bytesDropped == 0 && removedTemporaryFiles.isEmpty && problems.isEmpty }
}
