import HashTreeCollections
import TallyModel

/// Debt balances (S1-S8, T2, T3): household debts between pairs of people from shared
/// transactions, with the unsettled items behind each balance; settlements; group member
/// balances and the simplified settlement plan.
///
/// Only resolved amounts stored in the events are used (G4): shares of
/// `TransactionDetails.split` and `GroupExpenseRecorded.owed`. Nothing is re-split here.
public struct DebtProjection: Hashable, Sendable {
    /// The read models' one transaction book, lent by ``Projections`` (which alone writes it).
    var transactions = ArchivedMap<TransactionID, TransactionRecord>(space: .transactions)
    // What else grows with history lives in the store's history once a checkpoint wrote it
    // (``ArchivedMap``): settlements, settled items and group expenses.
    package internal(set) var settlements = ArchivedMap<SettlementID, SettlementRecord>(space: .debtSettlements)
    var settledItems = ArchivedMap<DebtItemKey, SettlementID>(space: .debtSettledItems)
    /// Groups by id (S7): the one book of them, which the engine's validation state reads too.
    package internal(set) var groups: TreeDictionary<GroupID, GroupRecord> = [:]
    /// Every recorded group expense (S7), deleted ones included: the one book of them, which the
    /// engine's validation state reads too.
    package internal(set) var groupExpenses = ArchivedMap<GroupExpenseID, GroupExpenseRecord>(space: .debtGroupExpenses)
    /// Live shared transactions with at least one unsettled share: what a settlement without a
    /// list can cover. Derived from the facts above (and written in checkpoints beside them),
    /// so that a settlement costs O(open items), not O(every transaction ever).
    var openTransactions: TreeSet<TransactionID> = []
    /// What each pair owes the other per currency from live shared transactions and household
    /// settlements (S5; ``DebtNets``, which the engine's validation reads too), derived like
    /// `openTransactions`: what a settlement without a list compares its payment with (S6), in O(1).
    var householdNets = DebtNets()
    /// Each group member's paid, owed and settled totals per currency (S7; ``GroupNets``, the
    /// rule the engine's validation keeps too), derived like `householdNets`: what member
    /// balances and the settlement plan read, in O(members of the group).
    package internal(set) var groupNets = GroupNets()
    /// Events this projection could not apply, in journal order (see ``ProjectionProblem``).
    public internal(set) var problems: [ProjectionProblem] = []

    /// An empty read model, before any event (``Projections`` folds it).
    init() {}

    /// Folds one event into the projection, after ``Projections`` applied it to the transaction
    /// book. Never throws or traps: an event that cannot apply is skipped and listed in
    /// ``problems``.
    /// - Parameters:
    ///   - event: the event, in journal order.
    ///   - sequenceNumber: its journal sequence number.
    ///   - before: the transaction the event changes, as it was before the event.
    mutating func apply(_ event: Event, sequenceNumber: UInt64, before: TransactionRecord?) {
        let changed = event.payload.changedTransactionID
        let changedExpense = Self.groupExpenseID(changedBy: event.payload)
        addNet(of: before, sign: -1)
        if let changedExpense { addGroupNet(of: changedExpense, sign: -1) }
        applyFacts(event, sequenceNumber: sequenceNumber, before: before)
        if let changed { addNet(of: transactions[changed], sign: 1) }
        if let changedExpense { addGroupNet(of: changedExpense, sign: 1) }
        if case .settlementRecorded(let settlement) = event.payload,
           settlements[settlement.settlementID]?.sequenceNumber == sequenceNumber {
            if settlement.groupID == nil { householdNets.add(settlement) } else { groupNets.add(settlement) }
        }
        if let changed { refreshOpen(changed) }
        if case .settlementRecorded = event.payload { for id in openTransactions { refreshOpen(id) } }
    }

    /// The group expense an event records or changes (not a settled mark), if any.
    package static func groupExpenseID(changedBy payload: EventPayload) -> GroupExpenseID? {
        switch payload {
        case .groupExpenseRecorded(let event): event.expenseID
        case .groupExpenseEdited(let event): event.expense.expenseID
        case .groupExpenseDeleted(let event): event.expenseID
        case .groupExpenseRestored(let event): event.expenseID
        default: nil
        }
    }

    /// Adds (`sign` 1) or removes (-1) what group expense `id` contributes to `groupNets`.
    mutating func addGroupNet(of id: GroupExpenseID, sign: Int128) {
        guard let record = groupExpenses[id], record.isLive else { return }
        groupNets.add(expenseIn: record.groupID, paidBy: record.paidBy, amount: record.amount, owed: record.owed, sign: sign)
    }

    /// Adds (`sign` 1) or removes (-1) what a transaction's `record` contributes to `householdNets`.
    mutating func addNet(of record: TransactionRecord?, sign: Int128) {
        guard let record, record.isLive else { return }
        householdNets.add(record.details, sign: sign)
    }

    /// Whether transaction `id` still has an unsettled share, kept in `openTransactions`.
    mutating func refreshOpen(_ id: TransactionID) {
        let isOpen = transactions[id].map { record in
            guard record.isLive, let split = record.details.split else { return false }
            return split.shares.contains { share in
                share.person != record.details.payer && !share.amount.isZero
                    && settledItems[DebtItemKey(.transaction(id), person: share.person)] == nil
            }
        } ?? false
        if isOpen { openTransactions.insert(id) } else { openTransactions.remove(id) }
    }

    private mutating func applyFacts(_ event: Event, sequenceNumber: UInt64, before: TransactionRecord?) {
        switch event.payload {
        case .transactionRecorded(let recorded): record(recorded.transactionID, recorded.details, before, sequenceNumber)
        case .templateActivated(let activated): record(activated.transactionID, activated.details, before, sequenceNumber)
        case .transactionEdited(let edited):
            guard before != nil else {
                return problem(sequenceNumber, "T2", "unknown transaction \(edited.transactionID)")
            }
            if let reason = Self.invalidSplit(edited.details) {
                return problem(sequenceNumber, "S3", "edit of \(edited.transactionID): \(reason)")
            }
        case .transactionDeleted(let deleted):
            if before == nil { problem(sequenceNumber, "T3", "unknown transaction \(deleted.transactionID)") }
        case .transactionRestored(let restored):
            if before == nil { problem(sequenceNumber, "T3", "unknown transaction \(restored.transactionID)") }
        case .settlementRecorded(let settlement): settle(settlement, sequenceNumber)
        case .groupCreated(let created):
            guard groups[created.groupID] == nil else {
                return problem(sequenceNumber, "S7", "group \(created.groupID) is created twice")
            }
            groups[created.groupID] = GroupRecord(name: created.name, members: created.members)
        case .groupExpenseRecorded(let expense): recordGroupExpense(expense, sequenceNumber)
        case .groupExpenseEdited(let edited): editGroupExpense(edited.expense, sequenceNumber)
        case .groupExpenseDeleted(let deleted): changeGroupExpense(deleted.expenseID, sequenceNumber) { $0.isLive = false }
        case .groupExpenseRestored(let restored): changeGroupExpense(restored.expenseID, sequenceNumber) { $0.isLive = true }
        case .groupExpenseSettledMarked(let marked):
            changeGroupExpense(marked.expenseID, sequenceNumber) { $0.isMarkedSettled = marked.isSettled }
        case .groupUpdated, .groupMemberAdded, .groupMemberRemoved, .groupArchived, .groupUnarchived, .groupDeleted, .groupRestored:
            guard let groupID = event.payload.changedGroupID, groups[groupID] != nil else {
                return problem(sequenceNumber, "S7", "a change of an unknown group")
            }
            groups[groupID]?.apply(event.payload)
        default: break
        }
    }

    mutating func problem(_ sequenceNumber: UInt64, _ rule: String, _ message: String) {
        problems.append(ProjectionProblem(sequenceNumber: sequenceNumber, rule: rule, message: message))
    }

    /// Why a transaction's split cannot be used, or `nil`: shares must be in the amount's
    /// currency, name each person once and sum exactly to the amount (S3).
    static func invalidSplit(_ details: TransactionDetails) -> String? {
        guard details.amount.isPositive else { return "amount is not positive" }
        guard let split = details.split else { return nil }
        return invalidShares(split.shares, total: details.amount)
    }

    static func invalidShares(_ shares: [PersonShare], total: Money) -> String? {
        var sum = MoneySum(total.currency)
        var seen = Set<PersonID>()
        for share in shares {
            guard share.amount.currency == total.currency else { return "a share is not in \(total.currency)" }
            guard seen.insert(share.person).inserted else { return "\(share.person) has two shares" }
            sum.add(share.amount.minorUnits)
        }
        guard sum.units == Int128(total.minorUnits) else { return "shares do not sum to \(total)" }
        return nil
    }

    private mutating func record(
        _ transactionID: TransactionID, _ details: TransactionDetails, _ before: TransactionRecord?, _ sequenceNumber: UInt64
    ) {
        guard before == nil else {
            return problem(sequenceNumber, "T1", "transaction \(transactionID) is recorded twice")
        }
        if let reason = Self.invalidSplit(details) {
            problem(sequenceNumber, "S3", "transaction \(transactionID): \(reason)")
        }
    }

    private mutating func recordGroupExpense(_ expense: GroupExpenseRecorded, _ sequenceNumber: UInt64) {
        guard groupExpenses[expense.expenseID] == nil else {
            return problem(sequenceNumber, "S7", "group expense \(expense.expenseID) is recorded twice")
        }
        guard let reason = invalidGroupExpense(expense) else {
            groupExpenses[expense.expenseID] = GroupExpenseRecord(expense, sequenceNumber: sequenceNumber)
            return
        }
        problem(sequenceNumber, reason.rule, reason.message)
    }

    /// S7: an edit replaces the expense's fields; the group is the recorded one.
    private mutating func editGroupExpense(_ expense: GroupExpenseRecorded, _ sequenceNumber: UInt64) {
        guard let record = groupExpenses[expense.expenseID], record.groupID == expense.groupID else {
            return problem(sequenceNumber, "S7", "edit of unknown group expense \(expense.expenseID) or of its group")
        }
        if let reason = invalidGroupExpense(expense, previous: record.expense) {
            return problem(sequenceNumber, reason.rule, "edit: " + reason.message)
        }
        groupExpenses.update(expense.expenseID) { $0.expense = expense }
    }

    private mutating func changeGroupExpense(
        _ id: GroupExpenseID, _ sequenceNumber: UInt64, _ change: (inout GroupExpenseRecord) -> Void
    ) {
        guard groupExpenses[id] != nil else { return problem(sequenceNumber, "S7", "unknown group expense \(id)") }
        groupExpenses.update(id, change)
    }

    /// Why a group expense cannot count (S7, S8), or `nil`. An edit (`previous`: the expense
    /// before it) may still name a person who left the group where what they paid and owe stays
    /// exactly as it was (S8: their zero balance stays; an undone edit puts such an expense back).
    private func invalidGroupExpense(
        _ expense: GroupExpenseRecorded, previous: GroupExpenseRecorded? = nil
    ) -> (rule: String, message: String)? {
        guard let group = groups[expense.groupID] else { return ("S7", "unknown group \(expense.groupID)") }
        var members = Set(group.members)
        if let previous {
            func part(of person: PersonID, in expense: GroupExpenseRecorded) -> (paid: Money?, owed: Money?) {
                (expense.paidBy == person ? expense.amount : nil, expense.owed.first { $0.person == person }?.amount)
            }
            for person in [previous.paidBy] + previous.owed.map(\.person) where !members.contains(person)
                && part(of: person, in: previous) == part(of: person, in: expense) {
                members.insert(person)
            }
        }
        guard expense.amount.isPositive, members.contains(expense.paidBy),
              expense.owed.allSatisfy({ members.contains($0.person) }) else {
            return ("S7", "group expense \(expense.expenseID) names a non-member or a non-positive amount")
        }
        if let reason = Self.invalidShares(expense.owed, total: expense.amount) {
            return ("S8", "group expense \(expense.expenseID): \(reason)")
        }
        return nil
    }
}
