/// An earlier command was undone; its compensating events follow in the same batch (T5).
///
/// Tag 900, schema version 1 (see ``EventTag/commandUndone`` and `Docs/Events.md`).
@WireFields
public struct CommandUndone: Hashable, Sendable {
    /// The command undone.
    public let undoneCommandID: CommandID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(undoneCommandID: CommandID) {
        self.undoneCommandID = undoneCommandID
    }
}
