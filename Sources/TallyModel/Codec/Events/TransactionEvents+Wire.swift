// The transactions and templates events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension TransactionRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .transactionRecorded }

    /// Version 1 had no `tags` in the details (they upcast to `[]`); versions 1 and 2 stored
    /// the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1:
            reader.readsPlainPersonalText = true
            defer { reader.readsPlainPersonalText = false }
            return Self(transactionID: try reader.read(), details: try TransactionDetails.decodeWithoutTags(from: &reader))
        case 2: return try decodeWithPlainPersonalText(from: &reader)
        default: return try Self(from: &reader)
        }
    }
}

extension TransactionEdited: EventPayloadWire {
    package static var eventTag: EventTag { .transactionEdited }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        default: try Self(from: &reader)
        }
    }
}

extension TransactionDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .transactionDeleted }
}

extension TransactionRestored: EventPayloadWire {
    package static var eventTag: EventTag { .transactionRestored }
}

extension AttachmentAdded: EventPayloadWire {
    package static var eventTag: EventTag { .attachmentAdded }
}

extension AttachmentRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .attachmentRemoved }
}

extension TemplateCreated: EventPayloadWire {
    package static var eventTag: EventTag { .templateCreated }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        default: try Self(from: &reader)
        }
    }
}

extension TemplatePaused: EventPayloadWire {
    package static var eventTag: EventTag { .templatePaused }
}

extension TemplateResumed: EventPayloadWire {
    package static var eventTag: EventTag { .templateResumed }
}

extension TemplateActivated: EventPayloadWire {
    package static var eventTag: EventTag { .templateActivated }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        default: try Self(from: &reader)
        }
    }
}

extension TemplatePriceChanged: EventPayloadWire {
    package static var eventTag: EventTag { .templatePriceChanged }
}

extension TemplateCancelled: EventPayloadWire {
    package static var eventTag: EventTag { .templateCancelled }
}

extension TemplateEdited: EventPayloadWire {
    package static var eventTag: EventTag { .templateEdited }
}

extension TemplateProfileSet: EventPayloadWire {
    package static var eventTag: EventTag { .templateProfileSet }
}

extension TemplateSharingAccepted: EventPayloadWire {
    package static var eventTag: EventTag { .templateSharingAccepted }
}

extension OccurrenceBillingMarked: EventPayloadWire {
    package static var eventTag: EventTag { .occurrenceBillingMarked }
}

extension TemplateReinstated: EventPayloadWire {
    package static var eventTag: EventTag { .templateReinstated }
}
