import TallyModel

/// One user action with its envelope: who issued it, when, and under which id (G3, G5, G7).
///
/// Everything validation needs comes from the command and the ledger's state: ids are supplied
/// by the caller and `recordedAt` by the host, so a recorded command log replays to the same
/// events byte for byte. The engine never reads a clock or a random number generator.
public struct Command: Sendable, Hashable {
    /// The command's id; every event it produces carries it, and undo/redo name it (T5).
    public var commandID: CommandID
    /// The person issuing the command (G7); for `createHousehold`, the admin-to-be.
    public var actor: PersonID
    /// When the host recorded the command (UTC); stored in every event it produces.
    public var recordedAt: Timestamp
    /// What the user wants to do.
    public var action: CommandAction

    /// Creates a command.
    public init(commandID: CommandID, actor: PersonID, recordedAt: Timestamp, action: CommandAction) {
        self.commandID = commandID
        self.actor = actor
        self.recordedAt = recordedAt
        self.action = action
    }
}
