import TallyModel

/// Group member balances (S7) computed from the events alone, the way the debt read model
/// computed them before it kept running totals: a scan over every live expense and every
/// settlement of the group, in `Int128`. The tests hold the running totals of the engine's
/// validation state and of the read model to it.
///
/// It follows the events a valid history has (the read model's problems are not modelled): a
/// group's members as created, added and removed; an expense's latest fields and whether it is
/// live; settlements with a group.
public enum GroupBalanceScan {
    /// A member's sums in one group and currency, in minor units.
    public struct Totals: Hashable, Sendable {
        public var paid: Int128 = 0
        public var owed: Int128 = 0
        public var settlementsPaid: Int128 = 0
        public var settlementsReceived: Int128 = 0

        public init() {}

        /// Paid minus owed, plus settlements paid, minus settlements received.
        public var balance: Int128 { paid - owed + settlementsPaid - settlementsReceived }
    }

    /// Per group, per currency the group used, the totals of every current member and of every
    /// person a live expense or a settlement of the group names in that currency.
    public static func balances(_ events: some Sequence<Event>) -> [GroupID: [Currency: [PersonID: Totals]]] {
        var members: [GroupID: [PersonID]] = [:]
        var expenses: [GroupExpenseID: (expense: GroupExpenseRecorded, isLive: Bool)] = [:]
        var settlements: [SettlementRecorded] = []
        for event in events {
            switch event.payload {
            case .groupCreated(let created): members[created.groupID] = created.members
            case .groupMemberAdded(let added): members[added.groupID]?.append(added.personID)
            case .groupMemberRemoved(let removed): members[removed.groupID]?.removeAll { $0 == removed.personID }
            case .groupExpenseRecorded(let expense): expenses[expense.expenseID] = (expense, true)
            case .groupExpenseEdited(let edited): expenses[edited.expense.expenseID]?.expense = edited.expense
            case .groupExpenseDeleted(let deleted): expenses[deleted.expenseID]?.isLive = false
            case .groupExpenseRestored(let restored): expenses[restored.expenseID]?.isLive = true
            case .settlementRecorded(let settlement) where settlement.groupID != nil: settlements.append(settlement)
            default: break
            }
        }
        var totals: [GroupID: [Currency: [PersonID: Totals]]] = [:]
        for (expense, isLive) in expenses.values where isLive {
            let currency = expense.amount.currency
            totals[expense.groupID, default: [:]][currency, default: [:]][expense.paidBy, default: Totals()].paid += Int128(expense.amount.minorUnits)
            for share in expense.owed {
                totals[expense.groupID, default: [:]][currency, default: [:]][share.person, default: Totals()].owed += Int128(share.amount.minorUnits)
            }
        }
        for settlement in settlements {
            guard let group = settlement.groupID else { continue }
            let (currency, amount) = (settlement.amount.currency, Int128(settlement.amount.minorUnits))
            totals[group, default: [:]][currency, default: [:]][settlement.from, default: Totals()].settlementsPaid += amount
            totals[group, default: [:]][currency, default: [:]][settlement.to, default: Totals()].settlementsReceived += amount
        }
        for (group, byCurrency) in totals {
            for (currency, byPerson) in byCurrency {
                for person in members[group] ?? [] where byPerson[person] == nil {
                    totals[group]?[currency]?[person] = Totals()
                }
            }
        }
        return totals
    }
}
