// Binary layout of the undo and redo (t5) events: fields in declaration order (Docs/Events.md).

extension CommandUndone: EventPayloadWire {
    package static var eventTag: EventTag { .commandUndone }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(undoneCommandID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(undoneCommandID)
    }
}

extension CommandRedone: EventPayloadWire {
    package static var eventTag: EventTag { .commandRedone }

    package init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(redoneCommandID: try reader.read())
    }

    package func write(to writer: inout BinaryWriter) {
        writer.write(redoneCommandID)
    }
}
