// The undo and redo (t5) events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension CommandUndone: EventPayloadWire {
    package static var eventTag: EventTag { .commandUndone }
}

extension CommandRedone: EventPayloadWire {
    package static var eventTag: EventTag { .commandRedone }
}
