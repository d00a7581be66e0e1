import TallyModel

extension DebtProjection: ProjectionState {
    static let stateMagic = "tally.debts"

    /// The projection's state as deterministic checkpoint bytes (see `Docs/Projections.md`):
    /// equal states give equal bytes.
    public func encodedState() -> [UInt8] { stateBytes() }

    /// Restores a projection from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)``; never traps.
    public init(encodedState bytes: [UInt8]) throws(ProjectionError) { try self.init(stateBytes: bytes) }

    func encodeState(to writer: inout BinaryWriter) {
        writer.writeStateHeader(Self.stateMagic)
        writer.write(transactions)
        writer.write(settlements)
        writer.write(settledItems)
        writer.write(groups)
        writer.write(groupExpenses)
        writer.write(problems)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        try reader.readHeader(Self.stateMagic)
        self.init()
        transactions = try reader.read()
        settlements = try reader.read()
        settledItems = try reader.read()
        groups = try reader.read()
        groupExpenses = try reader.read()
        problems = try reader.read()
        for id in transactions.keys {
            refreshOpen(id)
            addNet(of: id, sign: 1)
        }
        for settlement in settlements.values where settlement.groupID == nil {
            addNet(debtor: settlement.to, creditor: settlement.from, settlement.amount.currency, Int128(settlement.amount.minorUnits))
        }
    }
}
