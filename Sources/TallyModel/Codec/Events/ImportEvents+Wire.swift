// The CSV import mapping events: their tags. The current layout of each is its fields in
// declaration order, written by @WireFields (Docs/Events.md).

extension ImportMappingSaved: EventPayloadWire {
    package static var eventTag: EventTag { .importMappingSaved }
}

extension ImportMappingRemoved: EventPayloadWire {
    package static var eventTag: EventTag { .importMappingRemoved }
}

extension ImportColumnMapping: WireValue {
    package static var wireBytesMin: Int { 2 }
}

extension ImportCategoryMapping: WireValue {
    package static var wireBytesMin: Int { 17 }
}
