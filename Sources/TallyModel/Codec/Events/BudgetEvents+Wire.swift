// Binary layout of the pay periods and budgets events: fields in declaration order (Docs/Events.md).

extension PaydaySet: EventPayloadWire {
    package static var eventTag: EventTag { .paydaySet }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(day: try reader.read(), effectiveFrom: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(day)
        writer.write(effectiveFrom)
    }
}

extension BudgetAllocated: EventPayloadWire {
    package static var eventTag: EventTag { .budgetAllocated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read(), amount: try reader.read(), fromPeriod: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(amount)
        writer.write(fromPeriod)
    }
}

extension IncomeSettingsSet: EventPayloadWire {
    package static var eventTag: EventTag { .incomeSettingsSet }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            mode: try reader.read(), monthlyIncome: try reader.read(), incomeCategoryIDs: try reader.read(),
            graceDays: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(mode)
        writer.write(monthlyIncome)
        writer.write(incomeCategoryIDs)
        writer.write(graceDays)
    }
}

extension BonusConfirmed: EventPayloadWire {
    package static var eventTag: EventTag { .bonusConfirmed }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
    }
}

extension PeriodClosed: EventPayloadWire {
    package static var eventTag: EventTag { .periodClosed }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(periodStart: try reader.read(), periodEnd: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(periodStart)
        writer.write(periodEnd)
    }
}
