/// The bounds ``HouseholdHistory`` keeps on what it stores and returns.
public struct HistoryLimits: Sendable, Hashable {
    /// The most commands one append takes.
    public var commandsPerAppendMax: Int
    /// The most frames one append writes.
    public var framesPerAppendMax: Int
    /// The most bytes of records in one frame.
    public var frameRecordsBytesMax: Int
    /// The most bytes of a chain value.
    public var chainBytesMax: Int
    /// The most frames one pull returns.
    public var framesPerPullMax: Int
    /// The bytes of records after which a pull stops adding frames (it returns at least one,
    /// which is at most `frameRecordsBytesMax`): a device far behind catches up in pages of
    /// bounded memory on both sides.
    public var pullBytesMax: Int
    /// The most keys one store takes or one read returns.
    public var keysPerStoreMax: Int
    /// The most bytes of a sealed key or of its fingerprint.
    public var sealedKeyBytesMax: Int

    /// Creates limits; the defaults suit a household server.
    public init(
        commandsPerAppendMax: Int = 1_000,
        framesPerAppendMax: Int = 1_000,
        frameRecordsBytesMax: Int = 16 << 20,
        chainBytesMax: Int = 64,
        framesPerPullMax: Int = 10_000,
        pullBytesMax: Int = 8 << 20,
        keysPerStoreMax: Int = 1_000,
        sealedKeyBytesMax: Int = 256
    ) {
        self.commandsPerAppendMax = commandsPerAppendMax
        self.framesPerAppendMax = framesPerAppendMax
        self.frameRecordsBytesMax = frameRecordsBytesMax
        self.chainBytesMax = chainBytesMax
        self.framesPerPullMax = framesPerPullMax
        self.pullBytesMax = pullBytesMax
        self.keysPerStoreMax = keysPerStoreMax
        self.sealedKeyBytesMax = sealedKeyBytesMax
    }
}
