// The shared expenses, groups and settlements events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension SplitRatioSet: EventPayloadWire {
    package static var eventTag: EventTag { .splitRatioSet }
}

extension SettlementRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .settlementRecorded }
}

extension GroupCreated: EventPayloadWire {
    package static var eventTag: EventTag { .groupCreated }
}

extension GroupExpenseRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .groupExpenseRecorded }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        default: try Self(from: &reader)
        }
    }
}

extension GroupUpdated: EventPayloadWire {
    package static var eventTag: EventTag { .groupUpdated }
}

extension GroupMemberAdded: EventPayloadWire {
    package static var eventTag: EventTag { .groupMemberAdded }
}

extension GroupMemberRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .groupMemberRemoved }
}

extension GroupArchived: EventPayloadWire {
    package static var eventTag: EventTag { .groupArchived }
}

extension GroupUnarchived: EventPayloadWire {
    package static var eventTag: EventTag { .groupUnarchived }
}

extension GroupDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .groupDeleted }
}

extension GroupExpenseEdited: EventPayloadWire {
    package static var eventTag: EventTag { .groupExpenseEdited }
}

extension GroupExpenseDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .groupExpenseDeleted }
}

extension GroupExpenseRestored: EventPayloadWire {
    package static var eventTag: EventTag { .groupExpenseRestored }
}

extension GroupExpenseSettledMarked: EventPayloadWire {
    package static var eventTag: EventTag { .groupExpenseSettledMarked }
}

extension GroupRestored: EventPayloadWire {
    package static var eventTag: EventTag { .groupRestored }
}
