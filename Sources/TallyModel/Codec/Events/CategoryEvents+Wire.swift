// Binary layout of the categories events: fields in declaration order (Docs/Events.md).

extension CategoryCreated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryCreated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(
            categoryID: try reader.read(), name: try reader.read(), group: try reader.read(),
            budgetType: try reader.read(), shareable: try reader.read(), icon: try reader.read(),
            color: try reader.read(), isPreset: try reader.read()
        )
    }

    package func write(to writer: inout BinaryWriter) {
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
    package static var eventTag: EventTag { .categoryRenamed }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read(), name: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(name)
    }
}

extension CategoryDeactivated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryDeactivated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
    }
}

extension CategoryReactivated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryReactivated }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
    }
}

extension CategoryDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .categoryDeleted }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(categoryID: try reader.read(), reassignedTo: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(categoryID)
        writer.write(reassignedTo)
    }
}
