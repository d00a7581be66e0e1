import TallyModel

/// All four read models, folded together: one ``apply(_:sequenceNumber:)`` routes each event.
///
/// Net worth is a view over the wallet state (``netWorth``), so the bundle keeps the wallet
/// facts once. The transactions are kept once too, in one book (``transactions``) that this
/// bundle folds and the wallet, debt and budget read models read: each derives what it keeps
/// (movements, debts, a date index) from the record before and after an event. The checkpoint
/// holds the book, the read models' states and the last sequence number applied.
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
    /// Every transaction recorded, once: its current fields (T2), whether it is live (T3), the
    /// sequence number that recorded it and what validation needs of it (``TransactionRecord``):
    /// the one book of transactions, which the engine's validation state reads too. Only a
    /// transaction every read model can use is kept (a known wallet in its currency, a positive
    /// amount, a valid split); an event the book refuses changes nothing, and the read model
    /// whose rule it breaks says why. In the store's history once a checkpoint wrote it
    /// (``ArchivedMap``). The wallet, debt and budget read models read it through their own
    /// `transactions`, which is this value (persistent maps: a copy shares every node); nothing
    /// else writes it but this fold (which settlement covers which item the debt read model
    /// keeps: ``DebtProjection/settlement(coveringTransaction:)``).
    package private(set) var transactions = ArchivedMap<TransactionID, TransactionRecord>(space: .transactions) {
        didSet { lendBooks() }
    }

    /// Every file ever attached to a transaction or group expense (T6), removed ones included:
    /// the one book of attachments, keyed by item then digest, which the engine's validation
    /// state reads too. In the store's history once a checkpoint wrote it.
    package private(set) var attachments = ArchivedMap<AttachmentKey, AttachmentRecord>(space: .attachments)

    /// Gives the wallet, debt and budget read models the current book to read: the one place
    /// the lent copies are set.
    private mutating func lendBooks() {
        wallets.transactions = transactions
        debts.transactions = transactions
        budgets.transactions = transactions
    }

    /// Empty read models, before any event.
    public init() {}

    /// Net worth (N1-N5) over the current wallet state.
    public var netWorth: NetWorthProjection { NetWorthProjection(wallets: wallets) }

    /// Folds one event into every read model. Never throws or traps.
    public mutating func apply(_ event: Event, sequenceNumber: UInt64) {
        let before = recordTransaction(event, sequenceNumber: sequenceNumber)
        wallets.apply(event, sequenceNumber: sequenceNumber, before: before)
        debts.apply(event, sequenceNumber: sequenceNumber, before: before)
        budgets.apply(event, sequenceNumber: sequenceNumber, before: before)
        goals.apply(event, sequenceNumber: sequenceNumber, wallets: wallets)
        attachments.apply(event)
        if case .categoryDeleted(let deleted) = event.payload, let target = deleted.reassignedTo {
            moveTransactions(from: deleted.categoryID, to: target, at: sequenceNumber)  // after the budgets noted what moves out of closed periods
        }
        lastSequenceNumber = sequenceNumber
    }

    /// C3: a category deleted with a reassignment target moves its transactions there (the
    /// category's range of the book: O(its transactions)).
    private mutating func moveTransactions(from source: CategoryID, to target: CategoryID, at sequenceNumber: UInt64) {
        for id in transactions.ids(inCategory: source) {
            transactions.update(id) {
                $0.details.categoryID = target
                $0.lastChanged = sequenceNumber
            }
        }
    }

    /// The transactions in `category`, deleted ones included, by id (C3).
    package func transactionIDs(in category: CategoryID) -> [TransactionID] {
        transactions.ids(inCategory: category)
    }

    /// The one fold of the transaction book: applies a transaction event to ``transactions``
    /// and returns the record as it was before (`nil` for other events, or when unknown). The
    /// times a record keeps (recorded, last edited, deleted) are the events' `recordedAt`, from
    /// the journal: the fold reads no clock (G3).
    private mutating func recordTransaction(_ event: Event, sequenceNumber: UInt64) -> TransactionRecord? {
        let payload = event.payload
        guard let id = payload.changedTransactionID else { return nil }
        let before = transactions[id]
        switch payload {
        case .transactionRecorded(let recorded):
            guard before == nil, isUsable(recorded.details) else { break }
            transactions[id] = TransactionRecord(
                details: recorded.details, sequenceNumber: sequenceNumber, splitWith: recorded.splitWith, recordedAt: event.recordedAt,
                originalAmount: recorded.originalAmount, payee: recorded.payee, subtitle: recorded.subtitle)
        case .templateActivated(let activated):
            guard before == nil, isUsable(activated.details) else { break }
            transactions[id] = TransactionRecord(
                details: activated.details, sequenceNumber: sequenceNumber, splitWith: nil, recordedAt: event.recordedAt, originalAmount: nil,
                payee: nil, subtitle: nil)
        case .transactionEdited(let edited):
            guard before != nil, isUsable(edited.details) else { break }
            transactions.update(id) {
                $0.details = edited.details
                $0.splitWith = edited.splitWith
                $0.originalAmount = edited.originalAmount
                $0.payee = edited.payee
                $0.subtitle = edited.subtitle
                $0.lastChanged = sequenceNumber
                $0.lastEditedAt = event.recordedAt
            }
        case .transactionDeleted:
            transactions.update(id) {
                $0.isLive = false
                $0.lastChanged = sequenceNumber
                $0.deletedAt = event.recordedAt
            }
        case .transactionRestored:
            transactions.update(id) {
                $0.isLive = true
                $0.lastChanged = sequenceNumber
                $0.deletedAt = nil
            }
        default:
            break
        }
        return before
    }

    /// Whether every read model can use a transaction with `details`: a known wallet in the
    /// amount's currency (W1), a positive amount (T1) and a split that sums to it (S3).
    private func isUsable(_ details: TransactionDetails) -> Bool {
        wallets.invalidReason(details) == nil && DebtProjection.invalidSplit(details) == nil
    }

    /// Folds events numbered from `firstSequenceNumber` on.
    public mutating func apply(_ events: some Sequence<Event>, firstSequenceNumber: UInt64) {
        var sequenceNumber = firstSequenceNumber
        for event in events {
            apply(event, sequenceNumber: sequenceNumber)
            sequenceNumber &+= 1
        }
    }

    /// The read models after `events`, numbered from `firstSequenceNumber` (the static form
    /// `(state, events) -> state`).
    public func folding(_ events: some Sequence<Event>, firstSequenceNumber: UInt64 = 1) -> Projections {
        var result = self
        result.apply(events, firstSequenceNumber: firstSequenceNumber)
        return result
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
        writer.write(transactions, archived: archived)
        wallets.encodeState(to: &writer, archived: archived)
        debts.encodeState(to: &writer, archived: archived)
        budgets.encodeState(to: &writer, archived: archived)
        goals.encode(to: &writer)
        writer.write(attachments, archived: archived)
        return writer.bytes
    }

    /// Restores every read model from ``encodedState()`` bytes.
    /// - Throws: ``ProjectionError/invalidCheckpoint(reason:)``; never traps.
    public init(encodedState bytes: [UInt8]) throws(ProjectionError) {
        var reader = StateReader(bytes)
        try reader.readHeader(Self.stateMagic)
        lastSequenceNumber = try reader.read()
        let transactions = try reader.read(.transactions, ArchivedMap<TransactionID, TransactionRecord>.self)
        wallets = try WalletProjection(from: &reader)
        debts = try DebtProjection(from: &reader)
        budgets = try BudgetProjection(from: &reader)
        goals = try GoalProjection(from: &reader)
        attachments = try reader.read(.attachments)
        try reader.finish()
        self.transactions = transactions
        lendBooks()  // an initializer runs no observer
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
    /// The maps that grow with history: in the store once a checkpoint settled them (the book
    /// in its `transactions` table, the others in `history`).
    static var archived: ArchivedFields<Projections> {
        ArchivedFields().with(\.transactions).with(\.wallets.transfers)
            .with(\.debts.settlements).with(\.debts.settledItems).with(\.debts.groupExpenses)
            .with(\.attachments)
    }

    /// What a checkpoint writes to the archive: every entry changed since the last one.
    package var archiveRows: some Sequence<ArchiveRow> { Self.archived.rows(of: self) }


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
