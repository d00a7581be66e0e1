import TallyModel

/// The shape shared by every read model: one part of the read models ``Projections`` folds
/// together (the one fold: they share the transaction book), with a canonical JSON rendering.
public protocol ReadModelProjection: Hashable, Sendable {
    /// Where this read model is within the folded read models.
    static var part: KeyPath<Projections, Self> { get }
    /// The read model as canonical JSON.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    func canonicalJSON() throws(ProjectionError) -> CanonicalJSON
    /// Events the projection could not apply.
    var problems: [ProjectionProblem] { get }
}

extension ReadModelProjection {
    /// This read model after `events`, numbered from `firstSequenceNumber`, folded with the
    /// others from empty read models (the static form `(state, events) -> state`).
    public static func folded(_ events: some Sequence<Event>, firstSequenceNumber: UInt64 = 1) -> Self {
        Projections().folding(events, firstSequenceNumber: firstSequenceNumber)[keyPath: part]
    }
}

extension WalletProjection: ReadModelProjection { public static var part: KeyPath<Projections, Self> { \.wallets } }
extension DebtProjection: ReadModelProjection { public static var part: KeyPath<Projections, Self> { \.debts } }
extension BudgetProjection: ReadModelProjection { public static var part: KeyPath<Projections, Self> { \.budgets } }
extension NetWorthProjection: ReadModelProjection { public static var part: KeyPath<Projections, Self> { \.netWorth } }
