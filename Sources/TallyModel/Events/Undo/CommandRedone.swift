/// An undone command was redone; its events follow again in the same batch (T5).
///
/// Tag 901, schema version 1 (see ``EventTag/commandRedone`` and `Docs/Events.md`).
@WireFields
public struct CommandRedone: Hashable, Sendable {
    /// The command redone.
    public let redoneCommandID: CommandID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(redoneCommandID: CommandID) {
        self.redoneCommandID = redoneCommandID
    }
}
