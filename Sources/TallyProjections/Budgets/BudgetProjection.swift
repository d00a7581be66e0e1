import HashTreeCollections
import TallyModel

/// Budget snapshots (B1-B7): pay periods, per-category reports with carried-over allocations,
/// 50/30/20 buckets, weekly allowances, income detection, and frozen snapshots of closed
/// periods with the adjustments that arrived after the close.
public struct BudgetProjection: Hashable, Sendable {
    /// The household's base currency, the budget currency.
    public internal(set) var baseCurrency: Currency?
    /// The `PaydaySet` rules (B1): the one book of them, which the engine's validation state
    /// reads too (its open period).
    var schedule = PaySchedule()
    /// Categories by id, deleted ones included (C1-C3): the one book of them, which the
    /// engine's validation state reads too.
    package internal(set) var categories: [CategoryID: CategoryRecord] = [:]
    /// Every category, deleted ones included, in display order (C1): creation order until a
    /// `CategoriesReordered`.
    package internal(set) var categoryOrder: [CategoryID] = []
    var allocations: [CategoryID: [AllocationRecord]] = [:]
    /// The read models' one transaction book, lent by ``Projections`` (which alone writes it).
    var transactions = ArchivedMap<TransactionID, TransactionRecord>(space: .transactions)
    /// The income settings as last set (B7), which the engine's validation reads too (what an
    /// undo puts back); the grace days are clamped to 0...31 where they are read.
    package internal(set) var incomeSettings: IncomeSettingsSet?
    /// The household's first day of the week (B5, Swiff 2.4.1; `FirstWeekdaySet`): where every
    /// week the engine computes starts. Monday until set.
    public internal(set) var firstWeekday: Weekday = .monday
    var confirmedBonuses: Set<TransactionID> = []
    /// Incomes marked as bonuses, with their allocations and roll-ins (US-066).
    var bonuses: [TransactionID: BonusRecord] = [:]
    var rates = ExchangeRateBook()
    var snapshots: [LocalDate: BudgetReport] = [:]
    /// Each deleted category whose entries were reassigned (C3), to the category that now holds
    /// them: a transaction's budget category is ``category(of:)``, so a deletion changes no record.
    var reassignedCategories: [CategoryID: CategoryID] = [:]
    /// Changes dated inside closed periods that arrived after the close (B6), in journal order.
    public internal(set) var adjustmentsAfterClose: [BudgetAdjustment] = []
    /// Events this projection could not apply, in journal order (see ``ProjectionProblem``).
    public internal(set) var problems: [ProjectionProblem] = []

    /// An empty read model, before any event (``Projections`` folds it).
    init() {}

    /// Folds one event into the projection, after ``Projections`` applied it to the transaction
    /// book. Never throws or traps: an event that cannot apply is skipped and listed in
    /// ``problems``.
    /// - Parameter before: the transaction the event changes, as it was before the event.
    mutating func apply(_ event: Event, sequenceNumber: UInt64, before: TransactionRecord?) {
        switch event.payload {
        case .householdCreated(let created): baseCurrency = created.baseCurrency
        case .baseCurrencyChanged(let changed): baseCurrency = changed.baseCurrency
        case .categoryCreated(let created):
            guard categories[created.categoryID] == nil else {
                return problem(sequenceNumber, "C1", "category \(created.categoryID) is created twice")
            }
            categories[created.categoryID] = CategoryRecord(
                name: created.name, group: created.group, budgetType: created.budgetType, isDeleted: false,
                icon: created.icon, color: created.color, isActive: true, shareable: created.shareable, isPreset: created.isPreset)
            categoryOrder.append(created.categoryID)
        case .categoryRenamed(let renamed): categories[renamed.categoryID]?.name = renamed.name
        case .categoryDeactivated(let deactivated): categories[deactivated.categoryID]?.isActive = false
        case .categoryReactivated(let reactivated): categories[reactivated.categoryID]?.isActive = true
        case .categoryUpdated(let updated):
            guard categories[updated.categoryID] != nil else {
                return problem(sequenceNumber, "C1", "unknown category \(updated.categoryID)")
            }
            categories[updated.categoryID]?.budgetType = updated.budgetType
            categories[updated.categoryID]?.icon = updated.icon
            categories[updated.categoryID]?.color = updated.color
        case .categoryTaxClassSet(let set):
            guard categories[set.categoryID] != nil else {
                return problem(sequenceNumber, "C1", "unknown category \(set.categoryID)")
            }
            categories[set.categoryID]?.taxClass = set.taxClass
        case .categoriesReordered(let reordered):
            categoryOrder = CategoryOrder.resolved(reordered.categoryIDs.filter { categories[$0] != nil }, keeping: categoryOrder)
        case .categoryDeleted(let deleted): deleteCategory(deleted, sequenceNumber)
        case .transactionRecorded(let recorded): record(recorded.transactionID, recorded.details, before, sequenceNumber)
        case .templateActivated(let activated): record(activated.transactionID, activated.details, before, sequenceNumber)
        case .transactionEdited(let edited):
            if before != nil, !edited.details.amount.isPositive {
                return problem(sequenceNumber, "T2", "edit of \(edited.transactionID): amount is not positive")
            }
            // The book refused the edit (another read model says why): nothing changed.
            guard before == nil || transactions[edited.transactionID]?.details == edited.details else { return }
            change(edited.transactionID, "transactionEdited", before, sequenceNumber)
        case .transactionDeleted(let deleted): change(deleted.transactionID, "transactionDeleted", before, sequenceNumber)
        case .transactionRestored(let restored): change(restored.transactionID, "transactionRestored", before, sequenceNumber)
        case .paydaySet(let payday):
            guard (1...31).contains(payday.day) else { return problem(sequenceNumber, "B1", "payday \(payday.day) outside 1...31") }
            if let interval = payday.intervalDays, !(1...366).contains(interval) {
                return problem(sequenceNumber, "B1", "payday interval \(interval) days outside 1...366")
            }
            if let second = payday.secondDay, !(1...31).contains(second) || payday.intervalDays != nil {
                return problem(sequenceNumber, "B1", "second payday \(second) outside 1...31 or beside an interval")
            }
            schedule.add(PaySchedule.Rule(
                day: payday.day, effectiveFrom: payday.effectiveFrom, sequenceNumber: sequenceNumber,
                intervalDays: payday.intervalDays, secondDay: payday.secondDay))
        case .budgetAllocated(let allocated):
            allocate(allocated.categoryID, allocated.amount, from: allocated.fromPeriod, "budgetAllocated", sequenceNumber)
        case .budgetRemoved(let removed):
            allocate(removed.categoryID, nil, from: removed.fromPeriod, "budgetRemoved", sequenceNumber)
        case .incomeSettingsSet(let settings):
            incomeSettings = settings
        case .firstWeekdaySet(let set):
            firstWeekday = set.firstWeekday
        case .bonusConfirmed(let confirmed): confirmedBonuses.insert(confirmed.transactionID)
        case .bonusMarked(let marked): markBonus(marked, on: Self.utcDay(event), sequenceNumber)
        case .bonusAllocated(let allocated): allocateBonus(allocated, on: Self.utcDay(event), sequenceNumber)
        case .bonusRolledIn(let rolled): rollIn(rolled, sequenceNumber)
        case .periodClosed(let closed): close(PayPeriod(start: closed.periodStart, end: closed.periodEnd), sequenceNumber)
        case .exchangeRateSet(let rate): rates.add(rate, sequenceNumber: sequenceNumber)
        default: break
        }
    }

    /// The UTC date an event was recorded on (G3: the event's own timestamp, never the clock).
    static func utcDay(_ event: Event) -> LocalDate { (try? event.recordedAt.utcDate()) ?? .min }

    mutating func problem(_ sequenceNumber: UInt64, _ rule: String, _ message: String) {
        problems.append(ProjectionProblem(sequenceNumber: sequenceNumber, rule: rule, message: message))
    }

    /// The start of the closed period containing `date`, if any.
    func closedPeriodStart(containing date: LocalDate) -> LocalDate? {
        snapshots.first { $0.value.period.contains(date) }?.key
    }

    private mutating func noteAdjustment(
        _ record: TransactionRecord?, _ transactionID: TransactionID, _ kind: String, _ sequenceNumber: UInt64
    ) {
        guard let record, let start = closedPeriodStart(containing: record.details.date) else { return }
        adjustmentsAfterClose.append(BudgetAdjustment(
            periodStart: start, sequenceNumber: sequenceNumber, kind: kind, transactionID: transactionID,
            categoryID: category(of: record), amount: record.details.amount))
    }

    /// The budget category of a transaction: its own, or the one its deleted category's entries
    /// were reassigned to (C3).
    func category(of record: TransactionRecord) -> CategoryID {
        reassignedCategories[record.details.categoryID] ?? record.details.categoryID
    }

    private mutating func record(
        _ transactionID: TransactionID, _ details: TransactionDetails, _ before: TransactionRecord?, _ sequenceNumber: UInt64
    ) {
        guard before == nil else {
            return problem(sequenceNumber, "T1", "transaction \(transactionID) is recorded twice")
        }
        guard details.amount.isPositive else { return problem(sequenceNumber, "T1", "transaction \(transactionID) amount is not positive") }
        guard let record = transactions[transactionID] else { return }  // the book refused it (another read model says why)
        noteAdjustment(record, transactionID, "transactionRecorded", sequenceNumber)
    }

    /// Follows an edit, delete or restore (`kind`) of the book's record `before` (B6).
    private mutating func change(
        _ transactionID: TransactionID, _ kind: String, _ before: TransactionRecord?, _ sequenceNumber: UInt64
    ) {
        guard let before else {
            return problem(sequenceNumber, "T2", "unknown transaction \(transactionID)")
        }
        guard let record = transactions[transactionID] else { return }
        noteAdjustment(before, transactionID, kind, sequenceNumber)
        if closedPeriodStart(containing: before.details.date) != closedPeriodStart(containing: record.details.date) {
            noteAdjustment(record, transactionID, kind, sequenceNumber)
        }
    }

    /// The transactions dated in `range`, deleted ones included, by date then id: one range of
    /// the book's date index.
    func transactions(datedIn range: ClosedRange<LocalDate>) -> [(id: TransactionID, record: TransactionRecord)] {
        transactions.records(matching: .dated(range)) { range.contains($0.details.date) }
            .map { (id: $0.key, record: $0.value) }
            .sorted { ($0.record.details.date, $0.id) < ($1.record.details.date, $1.id) }
    }

    private mutating func deleteCategory(_ deleted: CategoryDeleted, _ sequenceNumber: UInt64) {
        guard categories[deleted.categoryID] != nil else {
            return problem(sequenceNumber, "C3", "unknown category \(deleted.categoryID)")
        }
        guard categories[deleted.categoryID]?.isDeleted == false else { return }  // deleted before: its entries moved then
        categories[deleted.categoryID]?.isDeleted = true
        categories[deleted.categoryID]?.isActive = false
        guard let target = deleted.reassignedTo else { return }
        // O(the category's transactions): the book's category index, one range.
        for id in transactions.ids(inCategory: deleted.categoryID) {
            noteAdjustment(transactions[id], id, "categoryReassigned", sequenceNumber)
        }
        for (from, to) in reassignedCategories where to == deleted.categoryID { reassignedCategories[from] = target }
        reassignedCategories[deleted.categoryID] = target
    }

    /// Records an allocation (`amount` nil: a removal, B2) from the period starting at `from`.
    private mutating func allocate(
        _ categoryID: CategoryID, _ amount: Money?, from: LocalDate, _ kind: String, _ sequenceNumber: UInt64
    ) {
        var list = allocations[categoryID, default: []]
        list.append(AllocationRecord(amount: amount, fromPeriod: from, sequenceNumber: sequenceNumber))
        list.sort { ($0.fromPeriod, $0.sequenceNumber) < ($1.fromPeriod, $1.sequenceNumber) }
        allocations[categoryID] = list
        for start in snapshots.keys.sorted() where start >= from {
            adjustmentsAfterClose.append(BudgetAdjustment(
                periodStart: start, sequenceNumber: sequenceNumber, kind: kind, transactionID: nil,
                categoryID: categoryID, amount: amount ?? Money.zero(budgetCurrency)))
        }
    }

    private mutating func close(_ period: PayPeriod, _ sequenceNumber: UInt64) {
        guard period.start <= period.end, snapshots[period.start] == nil else {
            return problem(sequenceNumber, "B6", "period \(period.start)...\(period.end) is invalid or already closed")
        }
        do {
            snapshots[period.start] = try report(for: period, isFinal: true)
        } catch {
            problem(sequenceNumber, "B6", "period \(period.start) could not be frozen: \(error)")
        }
    }
}
