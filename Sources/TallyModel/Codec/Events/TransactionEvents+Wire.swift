// Binary layout of the transactions and templates events: fields in declaration order (Docs/Events.md).

extension TransactionRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .transactionRecorded }

    /// Version 1 had no `tags` in the details (they upcast to `[]`); versions 1 and 2 stored
    /// the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1:
            reader.readsPlainPersonalText = true
            defer { reader.readsPlainPersonalText = false }
            return Self(transactionID: try reader.read(), details: try TransactionDetails(from: &reader, includesTags: false))
        case 2: return try decodeWithPlainPersonalText(from: &reader)
        case 3: return try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read(), details: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
        writer.write(details)
    }
}

extension TransactionEdited: EventPayloadWire {
    package static var eventTag: EventTag { .transactionEdited }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        case 2: try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read(), details: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
        writer.write(details)
    }
}

extension TransactionDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .transactionDeleted }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
    }
}

extension TransactionRestored: EventPayloadWire {
    package static var eventTag: EventTag { .transactionRestored }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
    }
}

extension TemplateCreated: EventPayloadWire {
    package static var eventTag: EventTag { .templateCreated }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        case 2: try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read(), frequency: try reader.read(), details: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
        writer.write(frequency)
        writer.write(details)
    }
}

extension TemplatePaused: EventPayloadWire {
    package static var eventTag: EventTag { .templatePaused }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
    }
}

extension TemplateResumed: EventPayloadWire {
    package static var eventTag: EventTag { .templateResumed }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
    }
}

extension TemplateActivated: EventPayloadWire {
    package static var eventTag: EventTag { .templateActivated }

    /// Version 1 stored the note as a plain string (the actor's text).
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: try decodeWithPlainPersonalText(from: &reader)
        case 2: try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read(), transactionID: try reader.read(), details: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
        writer.write(transactionID)
        writer.write(details)
    }
}
