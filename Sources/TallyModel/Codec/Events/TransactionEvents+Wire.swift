// Binary layout of the transactions and templates events: fields in declaration order (Docs/Events.md).

extension TransactionRecorded: EventPayloadWire {
    package static var eventTag: EventTag { .transactionRecorded }

    /// Version 1 had no `tags` in the details; they upcast to `[]`.
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: Self(transactionID: try reader.read(), details: try TransactionDetails(from: &reader, includesTags: false))
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

extension TransactionEdited: EventPayloadWire {
    package static var eventTag: EventTag { .transactionEdited }

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

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read(), transactionID: try reader.read(), details: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
        writer.write(transactionID)
        writer.write(details)
    }
}
