import HashTreeCollections
import TallyModel

/// A category as the budget projection keeps it (C1, C3).
struct CategoryRecord: Hashable, Sendable {
    var name: String
    let group: CategoryGroup
    let budgetType: BudgetType
    var isDeleted: Bool
}

/// One `BudgetAllocated` (B2).
struct AllocationRecord: Hashable, Sendable {
    let amount: Money
    let fromPeriod: LocalDate
    let sequenceNumber: UInt64
}

/// The income settings (B7).
struct IncomeSettings: Hashable, Sendable {
    let mode: IncomeMode
    let monthlyIncome: Money
    let categoryIDs: [CategoryID]
    let graceDays: Int
}

extension CategoryRecord: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        name.encode(to: &writer)
        group.encode(to: &writer)
        budgetType.encode(to: &writer)
        isDeleted.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(name: try reader.read(), group: try reader.read(), budgetType: try reader.read(), isDeleted: try reader.read())
    }
}

extension AllocationRecord: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        amount.encode(to: &writer)
        fromPeriod.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(amount: try reader.read(), fromPeriod: try reader.read(), sequenceNumber: try reader.read())
    }
}

extension IncomeSettings: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        mode.encode(to: &writer)
        monthlyIncome.encode(to: &writer)
        categoryIDs.encode(to: &writer)
        graceDays.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(mode: try reader.read(), monthlyIncome: try reader.read(), categoryIDs: try reader.read(), graceDays: try reader.read())
    }
}

extension BudgetAdjustment: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        periodStart.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
        kind.encode(to: &writer)
        transactionID.encode(to: &writer)
        categoryID.encode(to: &writer)
        amount.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(
            periodStart: try reader.read(), sequenceNumber: try reader.read(), kind: try reader.read(),
            transactionID: try reader.read(), categoryID: try reader.read(), amount: try reader.read())
    }
}

/// A business date as the key of ``BudgetProjection/transactionsByDate``.
struct TransactionDay: Hashable, Sendable, ArchivedState {
    let date: LocalDate

    init(_ date: LocalDate) { self.date = date }

    func encode(to writer: inout BinaryWriter) { date.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { date = try reader.read() }
}

extension TransactionDay: Comparable {
    static func < (lhs: TransactionDay, rhs: TransactionDay) -> Bool { lhs.date < rhs.date }
}

/// The transactions of one business date: a persistent set, so that adding one to a day with
/// many costs O(log n), not a copy of the day; written sorted by id.
struct TransactionIDs: Hashable, Sendable, ArchivedState {
    private(set) var ids: TreeSet<TransactionID> = []

    mutating func insert(_ id: TransactionID) { ids.insert(id) }

    mutating func remove(_ id: TransactionID) { ids.remove(id) }

    func encode(to writer: inout BinaryWriter) { ids.sorted().encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { ids = TreeSet(try reader.read([TransactionID].self)) }
    init() {}
}
