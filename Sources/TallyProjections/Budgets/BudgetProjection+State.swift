import TallyModel

extension BudgetProjection: ProjectionState {
    static let stateMagic = "tally.budgets"

    func encodeState(to writer: inout BinaryWriter, archived: Bool) {
        writer.writeStateHeader(Self.stateMagic)
        baseCurrency.encode(to: &writer)
        writer.write(schedule)
        writer.write(categories)
        categoryOrder.encode(to: &writer)  // `write` is ambiguous for an array of ids (StateCodable and WireValue)
        writer.write(allocations)
        incomeSettings.encode(to: &writer)  // `write` is ambiguous for a model value (StateCodable and WireValue)
        writer.write(confirmedBonuses)
        writer.write(bonuses)
        writer.write(rates)
        writer.write(snapshots)
        writer.write(reassignedCategories)
        writer.write(adjustmentsAfterClose)
        writer.write(problems)
        writer.writeByte(firstWeekday.rawValue)
    }

    init(from reader: inout StateReader) throws(ProjectionError) {
        try reader.readHeader(Self.stateMagic)
        self.init()
        baseCurrency = try reader.read()
        schedule = try reader.read()
        categories = try reader.read()
        categoryOrder = try reader.read()
        allocations = try reader.read()
        incomeSettings = try reader.read()
        confirmedBonuses = try reader.read()
        bonuses = try reader.read()
        rates = try reader.read()
        snapshots = try reader.read()
        reassignedCategories = try reader.read()
        adjustmentsAfterClose = try reader.read()
        problems = try reader.read()
        firstWeekday = try reader.readWire()
    }
}
