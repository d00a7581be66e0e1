/// When `append` returns relative to the data reaching stable storage.
public enum DurabilityPolicy: Sendable, Hashable {
    /// `append` returns after `fdatasync`; concurrent appends share one sync (group commit).
    /// A crash never loses an acknowledged record. The default.
    case synchronous
    /// `append` returns after the write; a background task syncs every `milliseconds`, so a
    /// crash loses at most that window.
    case interval(milliseconds: Int)
    /// No syncs except at segment rotation and `close()`. For tests and bulk imports.
    case none
}

/// How a journal is opened.
public struct JournalOptions: Sendable {
    /// When appends become durable. Default `.synchronous`.
    public var durability: DurabilityPolicy = .synchronous
    /// Segment size at which the journal rotates to a new segment file. Default 64 MiB.
    public var segmentBytesMax: Int64 = 64 << 20
    /// Record and frame limits.
    public var limits: JournalLimits = .default
    /// When set, the hash chain is HMAC-SHA256 with this key instead of plain SHA-256.
    public var chainKey: [UInt8]?
    /// When set, every new frame is sealed with AES-GCM (see `JournalEncryption`).
    public var encryption: JournalEncryption?
    /// Create an empty journal when the directory has none. Default `true`. Never done when
    /// `evidence` proves records existed.
    public var createIfMissing = true
    /// What other files prove the journal held (see ``JournalEvidence``): a journal that ends
    /// before it is refused at open, before any torn tail is cut.
    public var evidence: JournalEvidence?

    /// Options with the defaults.
    public init() {}

    /// Options with the given durability and defaults otherwise.
    public init(durability: DurabilityPolicy) {
        self.durability = durability
    }

    func validate() throws(JournalError) {
        try limits.validate()
        guard segmentBytesMax >= 4096 else {
            throw .invalidOptions("segmentBytesMax must be at least 4096 bytes, got \(segmentBytesMax)")
        }
        if case .interval(let milliseconds) = durability, milliseconds < 1 {
            throw .invalidOptions("a sync interval must be at least 1 ms, got \(milliseconds)")
        }
        if let chainKey, chainKey.isEmpty {
            throw .invalidOptions("chainKey must not be empty; pass nil for an unkeyed chain")
        }
    }
}
