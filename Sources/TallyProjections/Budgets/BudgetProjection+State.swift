import TallyModel

extension BudgetProjection: ProjectionState {
    static let stateMagic = "tally.budgets"

    /// The projection's state as deterministic checkpoint bytes (see `Docs/Projections.md`):
    /// equal states give equal bytes.
    public func encodedState() -> [UInt8] { stateBytes() }

    /// Restores a projection from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)``; never traps.
    public init(encodedState bytes: [UInt8]) throws(ProjectionError) { try self.init(stateBytes: bytes) }

    func encodeState(to writer: inout BinaryWriter, archived: Bool) {
        writer.writeStateHeader(Self.stateMagic)
        baseCurrency.encode(to: &writer)
        writer.write(schedule)
        writer.write(categories)
        categoryOrder.encode(to: &writer)  // `write` is ambiguous for an array of ids (StateCodable and WireValue)
        writer.write(allocations)
        writer.write(transactions, archived: archived)
        writer.write(datedTransactions, archived: archived)
        writer.write(incomeSettings)
        writer.write(confirmedBonuses)
        writer.write(rates)
        writer.write(snapshots)
        writer.write(adjustmentsAfterClose)
        writer.write(problems)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        try reader.readHeader(Self.stateMagic)
        self.init()
        baseCurrency = try reader.read()
        schedule = try reader.read()
        categories = try reader.read()
        categoryOrder = try reader.read()
        allocations = try reader.read()
        transactions = try reader.read(.budgetTransactions)
        datedTransactions = try reader.read(.budgetDatedTransactions)
        incomeSettings = try reader.read()
        confirmedBonuses = try reader.read()
        rates = try reader.read()
        snapshots = try reader.read()
        adjustmentsAfterClose = try reader.read()
        problems = try reader.read()
    }
}
