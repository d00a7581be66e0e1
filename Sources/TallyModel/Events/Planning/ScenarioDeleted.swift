/// A planning scenario was deleted (R3); if it was active, the baseline is shown again.
///
/// Tag 631, schema version 1 (see ``EventTag/scenarioDeleted`` and `Docs/Events.md`).
@WireFields
public struct ScenarioDeleted: Hashable, Sendable {
    /// The scenario.
    public let scenarioID: ScenarioID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(scenarioID: ScenarioID) { self.scenarioID = scenarioID }
}
