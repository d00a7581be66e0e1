// The household and people events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

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
        default: return try Self(from: &reader)
        }
    }
}

extension BaseCurrencyChanged: EventPayloadWire {
    package static var eventTag: EventTag { .baseCurrencyChanged }
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
        default: return try Self(from: &reader)
        }
    }
}

extension MemberRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .memberRemoved }
}

extension AdminTransferred: EventPayloadWire {
    package static var eventTag: EventTag { .adminTransferred }
}

extension PersonAdded: EventPayloadWire {
    package static var eventTag: EventTag { .personAdded }

    /// Version 1 stored the name as a plain string; it upcasts to the contact's own text.
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1:
            let personID: PersonID = try reader.read()
            return Self(personID: personID, name: PersonalText(try reader.readString(), owner: personID))
        default: return try Self(from: &reader)
        }
    }
}

extension PersonArchived: EventPayloadWire {
    package static var eventTag: EventTag { .personArchived }
}

extension PersonForgotten: EventPayloadWire {
    package static var eventTag: EventTag { .personForgotten }
}

extension PersonUpdated: EventPayloadWire {
    package static var eventTag: EventTag { .personUpdated }
}

extension PersonAvatarSet: EventPayloadWire {
    package static var eventTag: EventTag { .personAvatarSet }
}

extension PersonUnarchived: EventPayloadWire {
    package static var eventTag: EventTag { .personUnarchived }
}

extension MemberInvited: EventPayloadWire {
    package static var eventTag: EventTag { .memberInvited }
}

extension InvitationCancelled: EventPayloadWire {
    package static var eventTag: EventTag { .invitationCancelled }
}

extension InvitationAccepted: EventPayloadWire {
    package static var eventTag: EventTag { .invitationAccepted }
}
