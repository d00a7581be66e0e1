import TallyModel

/// What an event does to the entities of a ledger, computed against the state before it (T5):
/// the keys it owns and references, and the events that compensate it (`nil`: irreversible).
struct EventEffect: Sendable, Equatable {
    /// Keys the event creates or changes.
    var owned: [EntityKey]
    /// Keys the event relies on.
    var referenced: [EntityKey] = []
    /// The events that undo it, or `nil` when the catalog has no compensating event.
    var inverse: [EventPayload]?
}
