/// One recorded fact in a household's journal (G4, G7): who did it, through which command, when
/// it was recorded, and what happened.
public struct Event: Hashable, Sendable {
    /// The command that produced the event; undo and redo name commands (T5).
    public let commandID: CommandID
    /// The person who issued the command (G7).
    public let actor: PersonID
    /// When the host recorded the event, in UTC (G3). Stored by the journal record, not the payload.
    public let recordedAt: Timestamp
    /// What happened.
    public let payload: EventPayload

    /// Creates an event.
    public init(commandID: CommandID, actor: PersonID, recordedAt: Timestamp, payload: EventPayload) {
        self.commandID = commandID
        self.actor = actor
        self.recordedAt = recordedAt
        self.payload = payload
    }
}
