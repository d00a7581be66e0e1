// Binary layout of the categories events: fields in declaration order (Docs/Events.md).

extension CategoryCreated: EventPayloadWire {
    static var eventTag: EventTag { .categoryCreated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            categoryID: try reader.read(), name: try reader.read(), group: try reader.read(),
            budgetType: try reader.read(), shareable: try reader.read(), icon: try reader.read(),
            color: try reader.read(), isPreset: try reader.read()
        )
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(name)
        writer.write(group)
        writer.write(budgetType)
        writer.write(shareable)
        writer.write(icon)
        writer.write(color)
        writer.write(isPreset)
    }
}

extension CategoryRenamed: EventPayloadWire {
    static var eventTag: EventTag { .categoryRenamed }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read(), name: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(name)
    }
}

extension CategoryDeactivated: EventPayloadWire {
    static var eventTag: EventTag { .categoryDeactivated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
    }
}

extension CategoryReactivated: EventPayloadWire {
    static var eventTag: EventTag { .categoryReactivated }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
    }
}

extension CategoryDeleted: EventPayloadWire {
    static var eventTag: EventTag { .categoryDeleted }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read(), reassignedTo: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(reassignedTo)
    }
}
