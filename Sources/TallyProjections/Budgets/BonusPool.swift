import TallyModel

/// A bonus as the budget read model keeps it (Flow US-066): the mark, when it was made, what
/// was allocated and when, and what rolled into the period's income.
@StateFields
struct BonusRecord: Hashable, Sendable {
    /// Whether the income is a bonus now (`BonusMarked`).
    var isBonus: Bool
    /// The UTC date of the latest `BonusMarked` that made it a bonus.
    var markedOn: LocalDate
    /// Its allocations, in journal order.
    var allocations: [BonusAllocated]
    /// The UTC date each allocation was recorded on, same order.
    var allocatedOn: [LocalDate]
    /// The unallocated amount that rolled into regular income (`BonusRolledIn`), if it did.
    var rolledIn: Money?
}

extension BonusRecord: StateCodable {}
extension BonusAllocated: WireBackedState {}

/// One bonus in the bonus pool (Flow US-066), in the base currency.
public struct BonusPoolEntry: Hashable, Sendable {
    /// The income transaction.
    public let transactionID: TransactionID
    /// Who received it.
    public let payer: PersonID
    /// Its date.
    public let date: LocalDate
    /// The whole bonus.
    public let amount: Money
    /// The sum of its allocations.
    public let allocated: Money
    /// `amount - allocated`, zero once it rolled in.
    public let available: Money
    /// The last day it can be allocated: 7 days after the later of its date and the day it was
    /// marked; the next command recorded after it rolls the rest into income.
    public let deadline: LocalDate
    /// What rolled into the income of its period, once it did.
    public let rolledIn: Money?
    /// Its allocations to categories and goals, in the order they were made.
    public let allocations: [BonusAllocated]
}

extension BudgetProjection {
    /// US-066: the days a bonus waits in the pool before its rest becomes regular income.
    static let bonusAllocationDays: Int64 = 7

    /// Folds a `BonusMarked` recorded on `day`.
    mutating func markBonus(_ marked: BonusMarked, on day: LocalDate, _ sequenceNumber: UInt64) {
        guard let record = transactions[marked.transactionID], record.details.kind == .income else {
            return problem(sequenceNumber, "B7", "bonus mark of \(marked.transactionID), which is no known income")
        }
        if var bonus = bonuses[marked.transactionID] {
            if marked.isBonus && !bonus.isBonus { bonus.markedOn = day }
            bonus.isBonus = marked.isBonus
            bonuses[marked.transactionID] = bonus
        } else if marked.isBonus {
            bonuses[marked.transactionID] = BonusRecord(isBonus: true, markedOn: day, allocations: [], allocatedOn: [], rolledIn: nil)
        }
    }

    /// Folds a `BonusAllocated` recorded on `day`.
    mutating func allocateBonus(_ allocated: BonusAllocated, on day: LocalDate, _ sequenceNumber: UInt64) {
        guard var bonus = bonuses[allocated.transactionID], bonus.isBonus else {
            return problem(sequenceNumber, "B7", "allocation of \(allocated.transactionID), which is not a bonus")
        }
        bonus.allocations.append(allocated)
        // The period it adds to: the one of the day it was made, never before the bonus's date.
        bonus.allocatedOn.append(max(day, transactions[allocated.transactionID]?.details.date ?? day))
        bonuses[allocated.transactionID] = bonus
    }

    /// Folds a `BonusRolledIn`.
    mutating func rollIn(_ rolled: BonusRolledIn, _ sequenceNumber: UInt64) {
        guard bonuses[rolled.transactionID]?.isBonus == true else {
            return problem(sequenceNumber, "B7", "roll-in of \(rolled.transactionID), which is not a bonus")
        }
        bonuses[rolled.transactionID]?.rolledIn = rolled.amount
    }

    /// The amount of an income that counts as income of its period (B7, US-066): all of it,
    /// or for a bonus in the pool only what rolled in.
    func incomeAmount(_ id: TransactionID, _ record: TransactionRecord) -> Money? {
        guard let bonus = bonuses[id], bonus.isBonus else { return record.details.amount }
        return bonus.rolledIn
    }

    /// Whether the income is a bonus in the pool (marked).
    func isPooledBonus(_ id: TransactionID) -> Bool { bonuses[id]?.isBonus == true }

    /// The bonus pool entry of an income marked as a bonus; `nil` otherwise or when deleted.
    package func bonusPoolEntry(_ id: TransactionID) -> BonusPoolEntry? {
        guard let bonus = bonuses[id], bonus.isBonus, let record = transactions[id], record.isLive else { return nil }
        let amount = record.details.amount
        var allocated: Int64 = 0
        for allocation in bonus.allocations { allocated = allocated.addingReportingOverflow(allocation.amount.minorUnits).partialValue }
        let start = max(record.details.date, bonus.markedOn)
        let available = bonus.rolledIn == nil ? max(0, amount.minorUnits - allocated) : 0
        return BonusPoolEntry(
            transactionID: id, payer: record.details.payer, date: record.details.date, amount: amount,
            allocated: Money(minorUnits: allocated, currency: amount.currency),
            available: Money(minorUnits: available, currency: amount.currency),
            deadline: (try? start.adding(days: Self.bonusAllocationDays)) ?? .max,
            rolledIn: bonus.rolledIn, allocations: bonus.allocations)
    }

    /// The bonus pool (US-066): every live income marked as a bonus that `viewer` sees (G7: an
    /// income is its payer's, and a shared one its sharers' too), by date then id.
    public func bonusPool(visibleTo viewer: Viewer) -> [BonusPoolEntry] {
        bonuses.keys.compactMap { id -> BonusPoolEntry? in
            guard let record = transactions[id], viewer.sees(record.details) else { return nil }
            return bonusPoolEntry(id)
        }
        .sorted { ($0.date, $0.transactionID) < ($1.date, $1.transactionID) }
    }

    /// The bonuses whose allocation deadline is before `date` with something still available:
    /// what the engine rolls into income before a command recorded on `date` (US-066), by id.
    package func bonusesDue(before date: LocalDate) -> [BonusRolledIn] {
        // O(bonuses waiting in the pool): rolled-in and unmarked ones are passed over first.
        bonuses.filter { $0.value.isBonus && $0.value.rolledIn == nil }.keys.sorted().compactMap { id in
            guard let entry = bonusPoolEntry(id), entry.rolledIn == nil, entry.deadline < date, entry.available.isPositive else { return nil }
            return BonusRolledIn(transactionID: id, amount: entry.available)
        }
    }

    /// The bonus allocations to categories that add to budgets in `period` (US-066): those
    /// recorded on a day inside it, of live bonuses.
    func bonusAllocations(in period: PayPeriod) -> [(categoryID: CategoryID, amount: Money)] {
        var result: [(categoryID: CategoryID, amount: Money)] = []
        for id in bonuses.keys.sorted() {
            guard let bonus = bonuses[id], bonus.isBonus, transactions[id]?.isLive == true else { continue }
            for (allocation, day) in zip(bonus.allocations, bonus.allocatedOn) where period.contains(day) {
                if let categoryID = allocation.categoryID { result.append((categoryID, allocation.amount)) }
            }
        }
        return result
    }
}
