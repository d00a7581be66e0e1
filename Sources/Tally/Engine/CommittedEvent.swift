import TallyModel

/// An event with its place in the journal, as delivered by ``Ledger/changes`` and
/// ``LedgerEventCursor/next()`` (``Ledger/eventCursor(from:through:)``).
public struct CommittedEvent: Sendable, Hashable {
    /// The journal sequence number (1-based, contiguous).
    public let sequenceNumber: UInt64
    /// The event.
    public let event: Event

    /// Creates a committed event.
    public init(sequenceNumber: UInt64, event: Event) {
        self.sequenceNumber = sequenceNumber
        self.event = event
    }
}

/// Where one new event landed: returned by ``Ledger/execute(_:)-([Command])``.
public struct EventPosition: Sendable, Hashable {
    /// The event's journal sequence number.
    public let sequenceNumber: UInt64
    /// The command that produced it.
    public let commandID: CommandID
    /// The event type.
    public let tag: EventTag

    /// Creates a position.
    public init(sequenceNumber: UInt64, commandID: CommandID, tag: EventTag) {
        self.sequenceNumber = sequenceNumber
        self.commandID = commandID
        self.tag = tag
    }
}
