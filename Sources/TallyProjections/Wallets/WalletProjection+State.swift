import TallyModel

extension WalletProjection: ProjectionState {
    static let stateMagic = "tally.wallets"

    func encodeState(to writer: inout BinaryWriter, archived: Bool) {
        writer.writeStateHeader(Self.stateMagic)
        baseCurrency.encode(to: &writer)
        writer.write(wallets)
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
        transfers = try reader.read(.walletTransfers)
        movementIndex = try reader.read()
        balancePoints = try reader.read()
        designations = try reader.read()
        rates = try reader.read()
        problems = try reader.read()
    }
}
