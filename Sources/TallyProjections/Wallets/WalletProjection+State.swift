import TallyModel

extension WalletProjection {
    static let stateMagic = "tally.wallets"

    /// The projection's state as deterministic checkpoint bytes (see `Docs/Projections.md`):
    /// equal states give equal bytes, so the engine can checkpoint and later restore without
    /// replaying the journal.
    public func encodedState() -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 1024)
        encodeState(to: &writer)
        return writer.bytes
    }

    /// Restores a projection from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)`` for damaged bytes or another
    ///   format version; never traps.
    public init(encodedState bytes: [UInt8]) throws(ProjectionError) {
        var reader = StateReader(bytes)
        try self.init(from: &reader)
        try reader.finish()
    }

    func encodeState(to writer: inout BinaryWriter) {
        writer.writeStateHeader(Self.stateMagic)
        baseCurrency.encode(to: &writer)
        writer.write(wallets)
        writer.write(transactions)
        writer.write(transfers)
        writer.write(balancePoints)
        writer.write(rates)
        writer.write(problems)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        try reader.readHeader(Self.stateMagic)
        self.init()
        baseCurrency = try reader.read()
        wallets = try reader.read()
        transactions = try reader.read()
        transfers = try reader.read()
        balancePoints = try reader.read()
        rates = try reader.read()
        problems = try reader.read()
    }
}
