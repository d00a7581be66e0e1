/// The sample data loaded by the command named here was cleared (E5-S6, T5): the
/// `CommandUndone` events of every sample command not undone yet follow in the same batch,
/// newest first, each with its compensating events. Permanent: a clear is not undone, and a
/// sample command it covers is not redone; load the sample again instead.
///
/// Tag 428, schema version 1 (see ``EventTag/sampleDataCleared`` and `Docs/Events.md`).
@WireFields
public struct SampleDataCleared: Hashable, Sendable {
    /// The command whose `SampleDataLoaded` this clears.
    public let loadCommandID: CommandID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(loadCommandID: CommandID) {
        self.loadCommandID = loadCommandID
    }
}
