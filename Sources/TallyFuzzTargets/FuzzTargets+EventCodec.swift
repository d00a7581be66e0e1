import TallyModel

extension FuzzTargets {
    /// The `recordedAt` every decoded event gets (it travels outside the payload).
    static let eventRecordedAt = Timestamp(millisecondsSinceEpoch: 1_767_261_600_000)

    /// Event codec target: bytes 0-1 are the tag (little-endian), byte 2 the schema version,
    /// the rest the payload given to `EventCodec.decode(tag:schemaVersion:payload:recordedAt:)`.
    ///
    /// Asserts: decoding throws only `EventCodecError` (typed) or succeeds; a decoded event
    /// re-encodes and decodes to an equal event; at the current schema version it re-encodes to
    /// the very same tag and bytes (every value has exactly one encoding, Docs/Events.md),
    /// sealed personal texts included: without a key they decode sealed and are written back
    /// unchanged (issue 32: a keyless relay keeps every byte).
    /// - Throws: ``FuzzFinding`` when a property fails.
    public static func eventCodec(_ data: UnsafeRawBufferPointer) throws(FuzzFinding) {
        guard data.count >= 3 else { return }
        let tag = UInt32(data[0]) | UInt32(data[1]) << 8
        let schemaVersion = UInt16(data[2])
        let payload = Array(data[3...])
        let event: Event
        do {
            event = try EventCodec.decode(tag: tag, schemaVersion: schemaVersion, payload: payload, recordedAt: eventRecordedAt)
        } catch {
            return
        }
        let encoded = EventCodec.encode(event)
        if schemaVersion == EventTag(rawValue: tag)?.schemaVersion {
            try require(encoded.tag == tag && encoded.schemaVersion == schemaVersion,
                        "tag \(tag) v\(schemaVersion) re-encodes as tag \(encoded.tag) v\(encoded.schemaVersion)")
            try require(encoded.payload == payload,
                        "tag \(tag) v\(schemaVersion): the payload decodes but re-encodes to different bytes")
        }
        let again: Event
        do {
            again = try EventCodec.decode(encoded, recordedAt: eventRecordedAt)
        } catch {
            throw FuzzFinding("tag \(tag) v\(schemaVersion): the re-encoded event does not decode: \(error)")
        }
        try require(again == event, "tag \(tag) v\(schemaVersion): encode then decode changes the event")
    }
}
