import TallyModel

/// All four read models, folded together: one ``apply(_:sequenceNumber:)`` routes each event.
///
/// Net worth is a view over the wallet state (``netWorth``), so the bundle keeps the wallet
/// facts once. The checkpoint holds the three states and the last sequence number applied.
public struct Projections: Hashable, Sendable {
    /// Wallet balances (W1-W6).
    public internal(set) var wallets = WalletProjection()
    /// Household and group debts (S1-S8).
    public internal(set) var debts = DebtProjection()
    /// Budget periods and snapshots (B1-B7).
    public internal(set) var budgets = BudgetProjection()
    /// Savings goals and their milestones (R2), over the wallet state.
    public internal(set) var goals = GoalProjection()
    /// The sequence number of the last event applied, `nil` before any.
    public internal(set) var lastSequenceNumber: UInt64?

    /// Empty read models, before any event.
    public init() {}

    /// Net worth (N1-N5) over the current wallet state.
    public var netWorth: NetWorthProjection { NetWorthProjection(wallets: wallets) }

    /// Folds one event into every read model. Never throws or traps.
    public mutating func apply(_ event: Event, sequenceNumber: UInt64) {
        wallets.apply(event, sequenceNumber: sequenceNumber)
        debts.apply(event, sequenceNumber: sequenceNumber)
        budgets.apply(event, sequenceNumber: sequenceNumber)
        goals.apply(event, sequenceNumber: sequenceNumber, wallets: wallets)
        lastSequenceNumber = sequenceNumber
    }

    /// Folds events numbered from `firstSequenceNumber` on.
    public mutating func apply(_ events: some Sequence<Event>, firstSequenceNumber: UInt64) {
        var sequenceNumber = firstSequenceNumber
        for event in events {
            apply(event, sequenceNumber: sequenceNumber)
            sequenceNumber &+= 1
        }
    }

    static let stateMagic = "tally.projections"

    /// Every read model's state as deterministic checkpoint bytes.
    public func encodedState() -> [UInt8] { encodedState(archived: false) }

    /// The checkpoint bytes, without the archived maps' entries when `archived` (a checkpoint
    /// writes ``archiveRows`` to the archive first).
    package func encodedState(archived: Bool) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 4096)
        writer.writeStateHeader(Self.stateMagic)
        lastSequenceNumber.encode(to: &writer)
        wallets.encodeState(to: &writer, archived: archived)
        debts.encodeState(to: &writer, archived: archived)
        budgets.encodeState(to: &writer, archived: archived)
        goals.encode(to: &writer)
        return writer.bytes
    }

    /// Restores every read model from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)``; never traps.
    public init(encodedState bytes: [UInt8]) throws(ProjectionError) {
        var reader = StateReader(bytes)
        try reader.readHeader(Self.stateMagic)
        lastSequenceNumber = try reader.read()
        wallets = try WalletProjection(from: &reader)
        debts = try DebtProjection(from: &reader)
        budgets = try BudgetProjection(from: &reader)
        goals = try GoalProjection(from: &reader)
        try reader.finish()
    }

    /// All read models as one canonical JSON object: `{"budgets","debts","goals","netWorth","wallets"}`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func canonicalJSON() throws(ProjectionError) -> CanonicalJSON {
        .object([
            "wallets": try wallets.canonicalJSON(), "debts": try debts.canonicalJSON(),
            "budgets": try budgets.canonicalJSON(), "netWorth": try netWorth.canonicalJSON(),
            "goals": try goals.canonicalJSON(wallets: wallets),
        ])
    }
}

extension Projections {
    /// The maps that grow with history: in the checkpoint archive once a checkpoint wrote them.
    static var archived: ArchivedFields<Projections> {
        ArchivedFields().with(\.wallets.transactions).with(\.wallets.transfers)
            .with(\.debts.transactions).with(\.debts.settlements).with(\.debts.settledItems).with(\.debts.groupExpenses)
            .with(\.budgets.transactions).with(\.budgets.datedTransactions)
    }

    /// What a checkpoint writes to the archive: every entry changed since the last one.
    package var archiveRows: some Sequence<ArchiveRow> { Self.archived.rows(of: self) }

    /// The rows of ``archiveRows`` that replace an older archived version.
    package var rewrittenRows: some Sequence<ArchiveRow> { Self.archived.rewrittenRows(of: self) }

    /// After a checkpoint wrote `written` (these read models as of then) to the archive
    /// `reader` reads: keeps in memory only what changed since.
    package mutating func settle(written: Projections, reader: any ArchiveSource) {
        Self.archived.settle(&self, written: written, reader: reader)
    }

    /// Reads what is not in memory from `reader` (read models restored from a checkpoint whose
    /// archived maps are in the archive).
    package mutating func attach(_ reader: any ArchiveSource) { Self.archived.attach(&self, to: reader) }

    /// A copy with every archived map whole in memory, which reads nothing from the archive.
    package func detached() -> Projections { Self.archived.detached(self) }

    /// How many entries of the archived maps are in memory.
    package var residentEntryCount: Int { Self.archived.residentCount(of: self) }

    /// Whether nothing is in the archive.
    package var isResident: Bool { Self.archived.isResident(self) }
}
