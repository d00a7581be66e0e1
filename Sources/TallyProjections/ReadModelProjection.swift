import TallyModel

/// The shape shared by every read model: a pure fold of events with a deterministic checkpoint
/// and a canonical JSON rendering.
public protocol ReadModelProjection: Hashable, Sendable {
    /// An empty projection, before any event.
    init()
    /// Folds one event; never throws or traps (unappliable events become problems).
    mutating func apply(_ event: Event, sequenceNumber: UInt64)
    /// The state as deterministic checkpoint bytes.
    func encodedState() -> [UInt8]
    /// Restores the state from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)``.
    init(encodedState bytes: [UInt8]) throws(ProjectionError)
    /// The read model as canonical JSON.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    func canonicalJSON() throws(ProjectionError) -> CanonicalJSON
    /// Events the projection could not apply.
    var problems: [ProjectionProblem] { get }
}

extension ReadModelProjection {
    /// Folds events numbered from `firstSequenceNumber` on (the static form `(state, events) -> state`).
    /// - Returns: the projection after the events.
    public func folding(_ events: some Sequence<Event>, firstSequenceNumber: UInt64 = 1) -> Self {
        var result = self
        var sequenceNumber = firstSequenceNumber
        for event in events {
            result.apply(event, sequenceNumber: sequenceNumber)
            sequenceNumber &+= 1
        }
        return result
    }
}

extension WalletProjection: ReadModelProjection {}
extension DebtProjection: ReadModelProjection {}
extension BudgetProjection: ReadModelProjection {}
extension NetWorthProjection: ReadModelProjection {}
