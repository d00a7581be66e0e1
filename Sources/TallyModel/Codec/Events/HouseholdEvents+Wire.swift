// Binary layout of the household and people events: fields in declaration order (Docs/Events.md).

extension HouseholdCreated: EventPayloadWire {
    package static var eventTag: EventTag { .householdCreated }

    /// Version 1 stored the admin's name as a plain string; it upcasts to the admin's text.
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1:
            let householdID: HouseholdID = try reader.read()
            let name: String = try reader.read()
            let baseCurrency: Currency = try reader.read()
            let admin: PersonID = try reader.read()
            return Self(householdID: householdID, name: name, baseCurrency: baseCurrency, admin: admin,
                        adminName: PersonalText(try reader.readString(), owner: admin))
        case 2: return try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

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

    /// Version 1 stored the name as a plain string; it upcasts to the member's own text.
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1:
            let personID: PersonID = try reader.read()
            let name = PersonalText(try reader.readString(), owner: personID)
            return Self(personID: personID, name: name, role: try reader.read())
        case 2: return try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

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

    /// Version 1 stored the name as a plain string; it upcasts to the contact's own text.
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1:
            let personID: PersonID = try reader.read()
            return Self(personID: personID, name: PersonalText(try reader.readString(), owner: personID))
        case 2: return try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

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

extension PersonForgotten: EventPayloadWire {
    package static var eventTag: EventTag { .personForgotten }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(personID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(personID)
    }
}
