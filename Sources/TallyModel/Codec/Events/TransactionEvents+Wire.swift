// Binary layout of the transactions and templates events: fields in declaration order (Docs/Events.md).

extension TransactionRecorded: EventPayloadWire {
    static var eventTag: EventTag { .transactionRecorded }

    /// Version 1 had no `tags` in the details; they upcast to `[]`.
    static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        switch version {
        case 1: Self(transactionID: try reader.read(), details: try TransactionDetails(from: &reader, includesTags: false))
        case 2: try Self(from: &reader)
        default: throw .unsupportedVersion(tag: eventTag.rawValue, version: version)
        }
    }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read(), details: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
        writer.write(details)
    }
}

extension TransactionEdited: EventPayloadWire {
    static var eventTag: EventTag { .transactionEdited }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read(), details: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
        writer.write(details)
    }
}

extension TransactionDeleted: EventPayloadWire {
    static var eventTag: EventTag { .transactionDeleted }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
    }
}

extension TransactionRestored: EventPayloadWire {
    static var eventTag: EventTag { .transactionRestored }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(transactionID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(transactionID)
    }
}

extension TemplateCreated: EventPayloadWire {
    static var eventTag: EventTag { .templateCreated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read(), frequency: try reader.read(), details: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
        writer.write(frequency)
        writer.write(details)
    }
}

extension TemplatePaused: EventPayloadWire {
    static var eventTag: EventTag { .templatePaused }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
    }
}

extension TemplateResumed: EventPayloadWire {
    static var eventTag: EventTag { .templateResumed }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
    }
}

extension TemplateActivated: EventPayloadWire {
    static var eventTag: EventTag { .templateActivated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(templateID: try reader.read(), transactionID: try reader.read(), details: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(templateID)
        writer.write(transactionID)
        writer.write(details)
    }
}
