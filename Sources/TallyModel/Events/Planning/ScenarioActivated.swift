/// The active scenario changed (R3, Drishti E9-S1/S4): one at a time; activating one replaces
/// the previous, `nil` reverts to the baseline alone.
///
/// Tag 632, schema version 1 (see ``EventTag/scenarioActivated`` and `Docs/Events.md`).
@WireFields
public struct ScenarioActivated: Hashable, Sendable {
    /// The scenario now active; `nil` for none (the baseline).
    public let scenarioID: ScenarioID?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(scenarioID: ScenarioID?) { self.scenarioID = scenarioID }
}
