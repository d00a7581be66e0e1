/// An event payload struct with a tag and a versioned binary layout.
package protocol EventPayloadWire: WireValue {
    /// The event type's tag; its current schema version is `eventTag.schemaVersion`.
    static var eventTag: EventTag { get }

    /// Reads a payload written with schema `version` (``EventCodec`` has checked it is between 1
    /// and the current one), upcasting older versions to the current struct. The default reads
    /// the generated layout, which reads every version that differs from the current one only
    /// by fields marked `@WireSince` (absent, they read as `nil`); a type whose older layout
    /// differs otherwise overrides this for those versions.
    static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self
}

extension EventPayloadWire {
    package static func decode(from reader: inout BinaryReader, version: UInt16) throws(EventCodecError) -> Self {
        try Self(from: &reader)
    }
}

extension EventPayloadWire {
    /// Reads the current layout except that free text is a plain string owned by the event's
    /// actor: the layout of every version before ``PersonalText`` (schema versions in `Docs/Events.md`).
    static func decodeWithPlainPersonalText(from reader: inout BinaryReader) throws(EventCodecError) -> Self {
        reader.readsPlainPersonalText = true
        defer { reader.readsPlainPersonalText = false }
        return try Self(from: &reader)
    }
}
