import TallyModel
import TallyProjections

/// People's balances in an order and over time, and their group expenses across groups (Swiff
/// 1.3.1 sparkline and history, 2.3.2), for a viewer (G7).
extension PlanningView {
    /// Each person's balance with the others (``personBalances(visibleTo:)``, the same rule and
    /// the same rows for `viewer`, G7) in `order`.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows.
    public func personBalances(visibleTo viewer: Viewer, sortedBy order: PersonBalanceOrder) throws(LedgerError) -> [PersonBalance] {
        let balances = try personBalances(visibleTo: viewer)
        let byPair = { (a: PersonBalance, b: PersonBalance) in
            (a.person, a.other, a.owedToPerson.currency.code) < (b.person, b.other, b.owedToPerson.currency.code)
        }
        switch order {
        case .byPerson: return balances
        case .largestFirst:
            return balances.sorted { a, b in
                let (left, right) = (a.owedToPerson.minorUnits.magnitude, b.owedToPerson.minorUnits.magnitude)
                return left != right ? left > right : byPair(a, b)
            }
        case .recentActivity:
            var latest: [PersonID: [PersonID: LocalDate]] = [:]
            for person in Set(balances.map(\.person)) {
                latest[person] = try lastChanges(of: person)
            }
            let activity = { (row: PersonBalance) in latest[row.person]?[row.other] }
            return balances.sorted { a, b in
                let (left, right) = (activity(a), activity(b))
                guard left == right else { return (left ?? .min) > (right ?? .min) }
                return byPair(a, b)
            }
        }
    }

    /// `person`'s balance with `other` at the end of each business date on which it changed,
    /// oldest first (Swiff 1.3.1 sparkline; `DebtProjection.personBalanceHistory(of:)`, the
    /// ``personBalances(visibleTo:)`` rule as of each date): each point holds the pair's rows,
    /// one per currency, with the household part and each group's part; an empty point is a
    /// balance back at zero. The last point's rows are `person`'s current rows with `other`.
    /// A member sees only their own pairs (G7): for a pair `viewer` is not in, nothing.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows or `person` is `other`.
    public func personBalanceHistory(of person: PersonID, with other: PersonID, visibleTo viewer: Viewer) throws(LedgerError) -> [PersonBalancePoint] {
        guard person != other else { throw .invalidQuery("a balance history is between two people: \(person) is given twice") }
        guard viewer.sees(anyOf: person, other) else { return [] }
        var points: [PersonBalancePoint] = []
        for point in try history(of: person) {
            let rows = point.balances.filter { $0.other == other }
            if rows != points.last?.balances ?? [] { points.append(PersonBalancePoint(date: point.date, balances: rows)) }
        }
        return points
    }

    /// The live expenses `person` paid or has a part of, across every group (Swiff 1.3.1
    /// history), oldest first, each with its group, settled state and parts; `settled` `true`
    /// only settled ones, `false` only open ones, `nil` both. For `viewer` (G7): a member sees
    /// only the expenses of the groups they are in.
    public func groupExpenses(involving person: PersonID, settled: Bool? = nil, visibleTo viewer: Viewer) -> [GroupExpenseSummary] {
        let debts = models.debts
        return debts.groupExpenses(involving: person).filter { expense in
            guard let group = debts.group(expense.groupID), viewer.sees(groupWithMembers: group.members) else { return false }
            return settled.map { $0 == expense.isSettled } ?? true
        }
    }

    /// The last business date on which `person`'s balance with each other person changed.
    private func lastChanges(of person: PersonID) throws(LedgerError) -> [PersonID: LocalDate] {
        var latest: [PersonID: LocalDate] = [:]
        var previous: [PersonBalance] = []
        for point in try history(of: person) {
            let others = Set(previous.map(\.other)).union(point.balances.map(\.other))
            for other in others where previous.filter({ $0.other == other }) != point.balances.filter({ $0.other == other }) {
                latest[other] = point.date
            }
            previous = point.balances
        }
        return latest
    }

    private func history(of person: PersonID) throws(LedgerError) -> [PersonBalancePoint] {
        do { return try models.debts.personBalanceHistory(of: person) } catch { throw .invalidQuery(error.description) }
    }
}
