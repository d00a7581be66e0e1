import TallyModel

extension WalletProjection: ProjectionState {
    static let stateMagic = "tally.wallets"

    /// The projection's state as deterministic checkpoint bytes (see `Docs/Projections.md`):
    /// equal states give equal bytes.
    public func encodedState() -> [UInt8] { stateBytes() }

    /// Restores a projection from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)``; never traps.
    public init(encodedState bytes: [UInt8]) throws(ProjectionError) { try self.init(stateBytes: bytes) }

    func encodeState(to writer: inout BinaryWriter, archived: Bool) {
        writer.writeStateHeader(Self.stateMagic)
        baseCurrency.encode(to: &writer)
        writer.write(wallets)
        writer.write(transactions, archived: archived)
        writer.write(transfers, archived: archived)
        writer.write(movementIndex)
        writer.write(balancePoints)
        writer.write(designations)
        writer.write(rates)
        writer.write(problems)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        try reader.readHeader(Self.stateMagic)
        self.init()
        baseCurrency = try reader.read()
        wallets = try reader.read()
        transactions = try reader.read(.walletTransactions)
        transfers = try reader.read(.walletTransfers)
        movementIndex = try reader.read()
        balancePoints = try reader.read()
        designations = try reader.read()
        rates = try reader.read()
        problems = try reader.read()
    }
}
