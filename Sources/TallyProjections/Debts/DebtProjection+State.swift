import TallyModel

extension DebtProjection: ProjectionState {
    static let stateMagic = "tally.debts"

    func encodeState(to writer: inout BinaryWriter, archived: Bool) {
        writer.writeStateHeader(Self.stateMagic)
        writer.write(settlements, archived: archived)
        writer.write(settledItems, archived: archived)
        writer.write(groups)
        writer.write(groupExpenses, archived: archived)
        writer.write(openTransactions)
        householdNets.encode(to: &writer)
        groupNets.encode(to: &writer)
        writer.write(problems)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        try reader.readHeader(Self.stateMagic)
        self.init()
        settlements = try reader.read(.debtSettlements)
        settledItems = try reader.read(.debtSettledItems)
        groups = try reader.read()
        groupExpenses = try reader.read(.debtGroupExpenses)
        openTransactions = try reader.read()
        householdNets = try reader.read()
        groupNets = try reader.read()
        problems = try reader.read()
    }
}
