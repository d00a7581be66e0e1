// Binary layout of the undo and redo (t5) events: fields in declaration order (Docs/Events.md).

extension CommandUndone: EventPayloadWire {
    static var eventTag: EventTag { .commandUndone }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(undoneCommandID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(undoneCommandID)
    }
}

extension CommandRedone: EventPayloadWire {
    static var eventTag: EventTag { .commandRedone }

    init(from reader: inout BinaryReader) throws(EventCodecError) {
        self.init(redoneCommandID: try reader.read())
    }

    func write(to writer: inout BinaryWriter) {
        writer.write(redoneCommandID)
    }
}
