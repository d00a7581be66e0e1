/// An event in its stored form: the envelope fields the journal record keeps next to the
/// payload bytes. `recordedAt` is not in the payload; the journal record carries it.
public struct EncodedEvent: Hashable, Sendable {
    /// The event type's stable number (``EventTag``).
    public var tag: UInt32
    /// The schema version the payload was written with.
    public var schemaVersion: UInt16
    /// The command id, the actor and the event's fields (see `Docs/Events.md`).
    public var payload: [UInt8]

    /// Creates an envelope.
    public init(tag: UInt32, schemaVersion: UInt16, payload: [UInt8]) {
        self.tag = tag
        self.schemaVersion = schemaVersion
        self.payload = payload
    }
}
