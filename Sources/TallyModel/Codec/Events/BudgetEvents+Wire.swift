// Binary layout of the pay periods and budgets events: fields in declaration order (Docs/Events.md).

extension PaydaySet: EventPayloadWire {
    static var eventTag: EventTag { .paydaySet }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(day: try reader.read(), effectiveFrom: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(day)
        writer.write(effectiveFrom)
    }
}

extension BudgetAllocated: EventPayloadWire {
    static var eventTag: EventTag { .budgetAllocated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read(), amount: try reader.read(), fromPeriod: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(amount)
        writer.write(fromPeriod)
    }
}

extension IncomeSettingsSet: EventPayloadWire {
    static var eventTag: EventTag { .incomeSettingsSet }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            mode: try reader.read(), monthlyIncome: try reader.read(), incomeCategoryIDs: try reader.read(),
            graceDays: try reader.read()
        )
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(mode)
        writer.write(monthlyIncome)
        writer.write(incomeCategoryIDs)
        writer.write(graceDays)
    }
}

extension BonusConfirmed: EventPayloadWire {
    static var eventTag: EventTag { .bonusConfirmed }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
    }
}

extension PeriodClosed: EventPayloadWire {
    static var eventTag: EventTag { .periodClosed }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(periodStart: try reader.read(), periodEnd: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(periodStart)
        writer.write(periodEnd)
    }
}
