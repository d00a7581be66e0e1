import TallyJournal

/// How a ledger is opened.
public struct LedgerOptions: Sendable {
    /// When appends are durable; default `.synchronous` (fdatasync, group commit).
    public var durability: DurabilityPolicy = .synchronous
    /// The journal's segment size; default 64 MiB.
    public var segmentBytesMax: Int64 = 64 << 20
    /// An optional HMAC key for the journal's hash chain.
    public var chainKey: [UInt8]?
    /// Create an empty ledger when the directory holds none; default `true`.
    public var createIfMissing = true
    /// The file system (inject a fault-injecting one in tests); default POSIX.
    public var fileSystem: any FileSystem = PosixFileSystem()
    /// The most commands one `execute` call may carry; default 1000.
    public var commandsPerBatchMax = 1000
    /// The journal's size limits (records and bytes per frame, bytes per record); default
    /// `JournalLimits.default`. A batch is one frame, so these bound a batch too
    /// (``LedgerError/batchTooLarge(recordCount:limit:)``).
    public var journalLimits: JournalLimits = .default
    /// How many committed events each `changes` subscriber may have waiting; when a subscriber
    /// falls further behind, its oldest waiting events are dropped (`bufferingNewest`), which it
    /// sees as a gap in sequence numbers. Default 4096.
    public var changesBufferLimit = 4096
    /// A checkpoint of every state is written after this many events since the last one, and
    /// on `close()`; 0 turns checkpoints off. Default 10,000.
    public var checkpointIntervalEvents = 10_000
    /// Keys of an encrypted journal (`JournalEncryption`); new frames use the current key.
    public var encryption: JournalEncryption?
    /// Open even when personal texts of people who were never forgotten cannot be opened
    /// (their key is missing from `personal-keys`, P2): they read as sealed
    /// (`PersonalText.isSealed`: kept byte for byte, shown as `[sealed]`),
    /// ``LedgerOpenReport/unreadablePersonalTexts`` counts them, and `execute` is refused (the
    /// ledger is read-only until the key file is restored). Default `false`: such a ledger
    /// does not open (``LedgerError/personalKeys(_:)``), so lost keys are noticed, not hidden.
    public var opensWithUnreadablePersonalTexts = false
    /// Keep the read-side store (`<directory>/read-side`, Docs/Engine.md "Read side"); default
    /// `true`. Off, nothing is written there and ``Ledger/flushedStore()`` is `nil`.
    public var keepsReadSide = true
    /// Where `Ledger.execute(_:as:)` takes a command's id and recording time from; default
    /// the host's clock and random ids (``CommandEnvelopeSource/system``).
    public var envelope: CommandEnvelopeSource = .system

    /// Caps on live wallets, goals, scenarios, subscriptions, people and groups a host sets
    /// (a free tier, Drishti E11-S4, Swiff Phase 5); default none. Checked by the executor on
    /// new commands only (``RuleViolation/Code/entityLimitReached``): opening or replaying a
    /// journal never fails because of a cap, and a ledger above a lowered cap keeps what it has.
    public var entityLimits: EntityLimits = .none
    /// A sync server's ledger (Docs/Sync.md): it holds no personal key. Texts read as sealed
    /// and are written back byte for byte; a command enters texts only from the sealed entries
    /// its device sent (``Ledger/execute(each:sealedTexts:)``), so a command that enters a text
    /// without them is `sealedTextsMismatch`; forgetting a person records their tombstone, so
    /// their texts read and are written redacted (P3). Default `false`.
    package var keyless = false

    /// Options with the defaults.
    public init() {}

    /// Options with the given durability and defaults otherwise.
    public init(durability: DurabilityPolicy) {
        self.durability = durability
    }

    /// The journal options these map to.
    var journalOptions: JournalOptions {
        var options = JournalOptions(durability: durability)
        options.segmentBytesMax = segmentBytesMax
        options.chainKey = chainKey
        options.createIfMissing = createIfMissing
        options.encryption = encryption
        options.limits = journalLimits
        return options
    }

    /// Checks, before anything is validated or written, that `commandCount` commands can be one
    /// batch: one journal frame holds at most `journalLimits.recordsPerFrameMax` records and
    /// every command yields at least one event. A refused batch is refused early and whole:
    /// split it, or execute its commands in smaller batches.
    /// - Throws: ``LedgerError/batchTooLarge(recordCount:limit:)``.
    public func checkBatchFitsOneFrame(commandCount: Int) throws(LedgerError) {
        guard commandCount <= journalLimits.recordsPerFrameMax else {
            throw .batchTooLarge(recordCount: commandCount, limit: journalLimits.recordsPerFrameMax)
        }
    }
}
