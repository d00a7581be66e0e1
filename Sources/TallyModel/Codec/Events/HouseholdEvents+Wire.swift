// Binary layout of the household and people events: fields in declaration order (Docs/Events.md).

extension HouseholdCreated: EventPayloadWire {
    package static var eventTag: EventTag { .householdCreated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            householdID: try reader.read(), name: try reader.read(), baseCurrency: try reader.read(),
            admin: try reader.read(), adminName: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(householdID)
        writer.write(name)
        writer.write(baseCurrency)
        writer.write(admin)
        writer.write(adminName)
    }
}

extension BaseCurrencyChanged: EventPayloadWire {
    package static var eventTag: EventTag { .baseCurrencyChanged }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(baseCurrency: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(baseCurrency)
    }
}

extension MemberAdded: EventPayloadWire {
    package static var eventTag: EventTag { .memberAdded }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(personID: try reader.read(), name: try reader.read(), role: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(personID)
        writer.write(name)
        writer.write(role)
    }
}

extension MemberRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .memberRemoved }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            personID: try reader.read(), acknowledgedUnsettled: try reader.read(),
            unsettledAmount: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(personID)
        writer.write(acknowledgedUnsettled)
        writer.write(unsettledAmount)
    }
}

extension AdminTransferred: EventPayloadWire {
    package static var eventTag: EventTag { .adminTransferred }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(from: try reader.read(), to: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(from)
        writer.write(to)
    }
}

extension PersonAdded: EventPayloadWire {
    package static var eventTag: EventTag { .personAdded }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(personID: try reader.read(), name: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(personID)
        writer.write(name)
    }
}

extension PersonArchived: EventPayloadWire {
    package static var eventTag: EventTag { .personArchived }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(personID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(personID)
    }
}
