// Binary layout of the shared expenses, groups and settlements events: fields in declaration order (Docs/Events.md).

extension SplitRatioSet: EventPayloadWire {
    package static var eventTag: EventTag { .splitRatioSet }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(mode: try reader.read(), ratios: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(mode)
        writer.write(ratios)
    }
}

extension SettlementRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .settlementRecorded }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            settlementID: try reader.read(), from: try reader.read(), to: try reader.read(),
            amount: try reader.read(), date: try reader.read(), covers: try reader.read(),
            isAdvance: try reader.read(), groupID: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(settlementID)
        writer.write(from)
        writer.write(to)
        writer.write(amount)
        writer.write(date)
        writer.write(covers)
        writer.write(isAdvance)
        writer.write(groupID)
    }
}

extension GroupCreated: EventPayloadWire {
    package static var eventTag: EventTag { .groupCreated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(groupID: try reader.read(), name: try reader.read(), members: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(groupID)
        writer.write(name)
        writer.write(members)
    }
}

extension GroupExpenseRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .groupExpenseRecorded }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        case 2: try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            expenseID: try reader.read(), groupID: try reader.read(), paidBy: try reader.read(),
            amount: try reader.read(), date: try reader.read(), note: try reader.read(),
            split: try reader.read(), owed: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(expenseID)
        writer.write(groupID)
        writer.write(paidBy)
        writer.write(amount)
        writer.write(date)
        writer.write(note)
        writer.write(split)
        writer.write(owed)
    }
}
