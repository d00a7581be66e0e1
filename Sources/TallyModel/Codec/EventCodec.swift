/// The versioned binary codec of events: no JSON, no `Codable`, no Foundation.
///
/// An encoded event is an envelope (``EncodedEvent``: tag, schema version) plus a payload that
/// holds the command id (16 bytes), the actor (16 bytes) and the event's fields in declaration
/// order. `recordedAt` travels in the journal record, outside the payload. The byte-level rules
/// are in `Docs/Events.md`.
public enum EventCodec {
    /// Encodes an event with the current schema version of its type.
    /// - Returns: the tag, the schema version and the payload bytes.
    public static func encode(_ event: Event) -> EncodedEvent {
        var writer = BinaryWriter(reservingCapacity: 96)
        let tag = encode(event, into: &writer)
        return EncodedEvent(tag: tag.rawValue, schemaVersion: tag.schemaVersion, payload: writer.bytes)
    }

    /// Appends the payload bytes of `event` to `writer` (to build several records in one buffer).
    /// - Returns: the event's tag; its schema version is `tag.schemaVersion`.
    @discardableResult
    public static func encode(_ event: Event, into writer: inout BinaryWriter) -> EventTag {
        writer.write(event.commandID)
        writer.write(event.actor)
        event.payload.write(to: &writer)
        return event.payload.tag
    }

    /// Decodes a payload written with any supported schema version (older versions are upcast).
    ///
    /// - Parameters:
    ///   - tag: the event type's tag from the journal record.
    ///   - schemaVersion: the schema version from the journal record.
    ///   - payload: the payload bytes.
    ///   - recordedAt: the timestamp from the journal record.
    /// - Returns: the event in its current shape.
    /// - Throws: ``EventCodecError``: `unknownTag`, `unsupportedVersion`, `truncated`,
    ///   `invalidValue` or `trailingBytes`. Never traps, whatever the bytes.
    public static func decode(
        tag: UInt32, schemaVersion: UInt16, payload: [UInt8], recordedAt: Timestamp
    ) throws(EventCodecError) -> Event {
        try decode(tag: tag, schemaVersion: schemaVersion, payload: payload, recordedAt: recordedAt, personalTexts: nil)
    }

    /// Decodes a payload, opening sealed ``PersonalText`` with `cipher` (without one, or without
    /// the owner's key, they decode redacted).
    package static func decode(
        tag: UInt32, schemaVersion: UInt16, payload: [UInt8], recordedAt: Timestamp,
        personalTexts cipher: (any PersonalTextCipher)?
    ) throws(EventCodecError) -> Event {
        guard let eventTag = EventTag(rawValue: tag) else { throw .unknownTag(tag) }
        guard (1...eventTag.schemaVersion).contains(schemaVersion) else {
            throw .unsupportedVersion(tag: tag, version: schemaVersion)
        }
        var reader = BinaryReader(payload)
        reader.personalTextCipher = cipher
        reader.layoutVersion = schemaVersion
        let commandID: CommandID = try reader.read()
        let actor: PersonID = try reader.read()
        reader.eventActor = actor
        let decoded = try EventPayload.decode(tag: eventTag, version: schemaVersion, from: &reader)
        try reader.finish()
        return Event(commandID: commandID, actor: actor, recordedAt: recordedAt, payload: decoded)
    }

    /// Decodes an envelope produced by ``encode(_:)``.
    /// - Throws: as ``decode(tag:schemaVersion:payload:recordedAt:)``.
    public static func decode(_ encoded: EncodedEvent, recordedAt: Timestamp) throws(EventCodecError) -> Event {
        try decode(tag: encoded.tag, schemaVersion: encoded.schemaVersion, payload: encoded.payload, recordedAt: recordedAt)
    }
}
