import TallyModel

/// A person's balances with everyone at the end of one business date (Swiff 1.3.1 sparkline):
/// the rows ``DebtProjection/personBalances(of:)`` gives, as of that date.
public struct PersonBalancePoint: Hashable, Sendable {
    /// The business date: the balances are those at its end.
    public let date: LocalDate
    /// The person's balances then, sorted by the other person then currency; empty when every
    /// balance was zero (all settled).
    public let balances: [PersonBalance]

    package init(date: LocalDate, balances: [PersonBalance]) {
        (self.date, self.balances) = (date, balances)
    }
}

extension DebtProjection {
    /// `person`'s balances at the end of each business date on which one of them changed,
    /// oldest first: the household part from the live shared transactions and household
    /// settlements dated up to then (S5), and each group's part of the plan of its balances
    /// then (S7, S8), summed by ``personBalances(of:)``'s one rule. So the last point's balances
    /// are ``personBalances(of:)``'s rows (none at all when nothing ever named the person).
    ///
    /// Read from the read model's books (the transactions, settlements and group expenses the
    /// store keeps), never by replaying the journal: O(transactions + settlements + expenses of
    /// the person's groups), plus one balance per date that changed something in them.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func personBalanceHistory(of person: PersonID) throws(ProjectionError) -> [PersonBalancePoint] {
        enum Fact {
            case transaction(TransactionDetails)
            case settlement(SettlementRecord)
            case groupExpense(GroupExpenseRecord)
        }
        let groupsOfPerson = Set(groupIDs.filter { groups[$0]?.members.contains(person) == true })
        var facts: [(date: LocalDate, order: UInt64, fact: Fact)] = []
        for (_, record) in transactions.allEntries where record.isLive {
            guard record.details.debts.contains(where: { $0.debtor == person || $0.creditor == person }) else { continue }
            facts.append((record.details.date, record.sequenceNumber, .transaction(record.details)))
        }
        for (_, settlement) in settlements.allEntries {
            let counts = settlement.groupID.map { groupsOfPerson.contains($0) } ?? (settlement.from == person || settlement.to == person)
            if counts { facts.append((settlement.date, settlement.sequenceNumber, .settlement(settlement))) }
        }
        for (_, expense) in groupExpenses.allEntries where expense.isLive && groupsOfPerson.contains(expense.groupID) {
            facts.append((expense.date, expense.sequenceNumber, .groupExpense(expense)))
        }
        facts.sort { ($0.date, $0.order) < ($1.date, $1.order) }

        var household = DebtNets()
        var groupTotals = GroupNets()
        var points: [PersonBalancePoint] = []
        for (index, entry) in facts.enumerated() {
            switch entry.fact {
            case .transaction(let details): household.add(details, sign: 1)
            case .settlement(let settlement):
                if settlement.groupID == nil {
                    household.add(settlementFrom: settlement.from, to: settlement.to, amount: settlement.amount)
                } else {
                    groupTotals.add(settlementFrom: settlement.from, to: settlement.to, amount: settlement.amount, in: settlement.groupID)
                }
            case .groupExpense(let expense):
                groupTotals.add(expenseIn: expense.groupID, paidBy: expense.paidBy, amount: expense.amount, owed: expense.owed, sign: 1)
            }
            // The balances at the end of the date: after its last fact.
            guard index == facts.count - 1 || facts[index + 1].date != entry.date else { continue }
            let balances = try personBalances(of: person, household: household, groups: groupTotals)
            if balances != points.last?.balances ?? [] { points.append(PersonBalancePoint(date: entry.date, balances: balances)) }
        }
        return points
    }
}
