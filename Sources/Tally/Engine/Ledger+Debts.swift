import TallyModel
import TallyProjections
import TallyStore

/// One household debt (S5) as a "who owes whom" screen shows it: both people with their names.
public struct DebtRow: Sendable, Hashable {
    /// Who owes.
    public let debtor: PersonID
    /// Their display name (redacted for a forgotten person, P3); `nil` when unknown.
    public let debtorName: String?
    /// Who is owed.
    public let creditor: PersonID
    /// Their display name, as ``debtorName``.
    public let creditorName: String?
    /// What the debtor owes, net of every shared item and settlement between the two, in one
    /// currency (a pair owing in two currencies is two rows).
    public let amount: Money
    /// The shared items not settled yet, oldest first.
    public let openItems: [DebtItem]
}

extension Ledger {
    /// The household's debts between people (S5) with their names, as of the last acknowledged
    /// batch: one row per pair and currency whose balance is not zero, sorted by the pair's ids
    /// then currency (`models.debts.householdBalances()` gives the same balances by id alone).
    /// A member `viewer` gets the debts they owe or are owed (G7); `Viewer/audit` every pair's.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows (G1);
    ///   ``LedgerError/readSide(_:)`` when the store that holds the names cannot answer.
    public func debts(visibleTo viewer: Viewer) throws(LedgerError) -> [DebtRow] {
        let balances: [PairBalance]
        do { balances = try servedModels.debts.householdBalances() } catch { throw .invalidQuery(error.description) }
        let names = try withStore { store throws(StoreError) in try store.personNames() }
        return balances.compactMap { balance in
            guard let debtor = balance.debtor, let creditor = balance.creditor, viewer.sees(anyOf: debtor, creditor) else { return nil }
            return DebtRow(debtor: debtor, debtorName: names[debtor], creditor: creditor, creditorName: names[creditor],
                           amount: balance.amount, openItems: balance.openItems)
        }
    }
}

extension Ledger {
    /// A group's live expenses, oldest first, each with its settled state and every member's
    /// part with its paid state (S6, S7; Swiff 2.1.4 "paid state per participant"), for
    /// `viewer` (G7): a member sees the expenses of the groups they are in, and nothing of
    /// another group (an empty list, as for an unknown group).
    /// - Parameters:
    ///   - groupID: the group.
    ///   - settled: `true` only settled expenses, `false` only open ones (Swiff's Settled /
    ///     Unsettled filter, `GroupExpenseSummary.isSettled`), `nil` both.
    ///   - viewer: who the list is for.
    public func groupExpenses(in groupID: GroupID, settled: Bool? = nil, visibleTo viewer: Viewer) -> [GroupExpenseSummary] {
        let debts = servedModels.debts
        guard let group = debts.group(groupID), viewer.sees(groupWithMembers: group.members) else { return [] }
        return debts.groupExpenses(in: groupID).filter { expense in settled.map { $0 == expense.isSettled } ?? true }
    }
}

extension Ledger {
    /// The live expenses `person` paid or has a part of, across every group (Swiff 1.3.1
    /// history), oldest first, each with its group, settled state and parts, for `viewer` (G7:
    /// a member sees only the expenses of the groups they are in).
    /// - Parameters:
    ///   - person: whose expenses.
    ///   - settled: `true` only settled expenses, `false` only open ones, `nil` both (as
    ///     ``groupExpenses(in:settled:visibleTo:)``).
    ///   - viewer: who the list is for.
    /// (``PlanningView/groupExpenses(involving:settled:visibleTo:)``.)
    public func groupExpenses(involving person: PersonID, settled: Bool? = nil, visibleTo viewer: Viewer) -> [GroupExpenseSummary] {
        planningView(store: nil).groupExpenses(involving: person, settled: settled, visibleTo: viewer)
    }
}

/// People's balances across the household and groups (Swiff 1.3.1, S5, S8).
extension Ledger {
    /// Each person's balance with the others across the household and groups (Swiff 1.3.1):
    /// a member `viewer`'s own, the audit's every person's (``PlanningView/personBalances(visibleTo:)``).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows.
    public func personBalances(visibleTo viewer: Viewer) throws(LedgerError) -> [PersonBalance] {
        try planningView(store: nil).personBalances(visibleTo: viewer)
    }

    /// Each person's balance with the others (``personBalances(visibleTo:)``, the same rule and
    /// the same rows for `viewer`, G7) in `order`: Swiff's "people by balance" and "by recent
    /// activity" (``PlanningView/personBalances(visibleTo:sortedBy:)``).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows.
    public func personBalances(visibleTo viewer: Viewer, sortedBy order: PersonBalanceOrder) throws(LedgerError) -> [PersonBalance] {
        try planningView(store: nil).personBalances(visibleTo: viewer, sortedBy: order)
    }

    /// `person`'s balance with `other` at the end of each business date on which it changed,
    /// oldest first (Swiff 1.3.1 sparkline; ``PlanningView/personBalanceHistory(of:with:visibleTo:)``):
    /// the last point is their current balance; a member sees only their own pairs (G7).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows or `person` is `other`.
    public func personBalanceHistory(of person: PersonID, with other: PersonID, visibleTo viewer: Viewer) throws(LedgerError) -> [PersonBalancePoint] {
        try planningView(store: nil).personBalanceHistory(of: person, with: other, visibleTo: viewer)
    }
}
