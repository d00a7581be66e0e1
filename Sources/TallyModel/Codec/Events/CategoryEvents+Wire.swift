// The categories events: their tags and the decoders of their older layouts. The current layout of each is
// its fields in declaration order, written by @WireFields (Docs/Events.md).

extension CategoryCreated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryCreated }
}

extension CategoryRenamed: EventPayloadWire {
    package static var eventTag: EventTag { .categoryRenamed }
}

extension CategoryDeactivated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryDeactivated }
}

extension CategoryReactivated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryReactivated }
}

extension CategoryDeleted: EventPayloadWire {
    package static var eventTag: EventTag { .categoryDeleted }
}

extension CategoryUpdated: EventPayloadWire {
    package static var eventTag: EventTag { .categoryUpdated }
}

extension CategoriesReordered: EventPayloadWire {
    package static var eventTag: EventTag { .categoriesReordered }
}

extension CategoryTaxClassSet: EventPayloadWire {
    package static var eventTag: EventTag { .categoryTaxClassSet }
}
