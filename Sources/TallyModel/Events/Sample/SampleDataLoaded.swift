/// The commands named here, executed earlier in the same batch, are sample data (E5-S6): a
/// demo household a person can look around in and clear later with one command. What they
/// created is flagged as sample in every read until it is cleared (`SampleDataCleared`).
///
/// Tag 426, schema version 1 (see ``EventTag/sampleDataLoaded`` and `Docs/Events.md`).
@WireFields
public struct SampleDataLoaded: Hashable, Sendable {
    /// The sample commands, in the order they were executed.
    public let commandIDs: [CommandID]

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(commandIDs: [CommandID]) {
        self.commandIDs = commandIDs
    }
}
