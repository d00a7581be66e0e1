/// What the engine's `execute` closure returns to ``HouseholdHistory/append(household:device:commands:execute:)``:
/// the frames its accepted commands produced and one outcome per command it was given.
public struct ExecutedBatch: Sendable, Hashable {
    /// The new frames, in order: the first starts at the head's sequence number + 1 and each
    /// next one where the previous one ends + 1. Empty when every command was rejected.
    public var frames: [HistoryFrame]
    /// One outcome per command of ``AppendBatch/commands``, in the same order. An accepted
    /// command's range lies inside the new frames and after the previous accepted command's.
    public var outcomes: [CommandOutcome]

    /// Creates an executed batch.
    public init(frames: [HistoryFrame], outcomes: [CommandOutcome]) {
        self.frames = frames
        self.outcomes = outcomes
    }
}
