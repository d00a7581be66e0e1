import TallyModel
import TallyProjections

/// The orders of a list of people's balances (Swiff 2.3.2 "sort people by balance").
public enum PersonBalanceOrder: String, Sendable, Hashable, CaseIterable {
    /// By person, then the other person's id, then currency (the order of
    /// ``Ledger/personBalances(visibleTo:)``).
    case byPerson = "person"
    /// The largest balance first, owed either way (the magnitude of
    /// `PersonBalance.owedToPerson` in minor units, whatever the currency); ties by person,
    /// other person and currency.
    case largestFirst = "balance-desc"
    /// The most recent activity first: the last business date on which the balance of the pair
    /// changed (``Ledger/personBalanceHistory(of:with:visibleTo:)``'s last point); ties by
    /// person, other person and currency.
    case recentActivity = "activity-desc"
}

/// A group as a list of groups shows it (S7; Swiff 2.3.2 "sort groups by members or total").
public struct GroupListRow: Sendable, Hashable {
    /// The group.
    public let groupID: GroupID
    /// Its name.
    public let name: String
    /// How many members it has now.
    public let memberCount: Int
    /// What its live expenses add up to, per currency (the sum of what its members paid, S7),
    /// by currency code; empty for a group without expenses.
    public let totals: [Money]
}

/// The orders of a list of groups (Swiff 2.3.2).
public enum GroupListOrder: String, Sendable, Hashable, CaseIterable {
    /// By name (case as entered), then id.
    case name
    /// The most members first; ties by name, then id.
    case mostMembers = "members-desc"
    /// The largest total first (its largest total in minor units, whatever the currency);
    /// ties by name, then id.
    case largestTotal = "total-desc"
}

extension Ledger {
    /// The groups `viewer` is in (G7; the audit: every group), deleted ones left out, with their
    /// member count and totals, in `order` (Swiff 2.3.2). O(groups x members).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a total overflows (G1).
    public func groups(visibleTo viewer: Viewer, sortedBy order: GroupListOrder = .name) throws(LedgerError) -> [GroupListRow] {
        let debts = servedModels.debts
        var rows: [GroupListRow] = []
        for groupID in debts.groupIDs {
            guard let group = debts.group(groupID), viewer.sees(groupWithMembers: group.members) else { continue }
            let balances: [Currency: [GroupMemberBalance]]
            do { balances = try debts.groupBalances(groupID) } catch { throw .invalidQuery(error.description) }
            var totals: [Money] = []
            for currency in balances.keys.sorted(by: { $0.code < $1.code }) {
                let units = (balances[currency] ?? []).reduce(Int128(0)) { $0 + Int128($1.paid.minorUnits) }
                guard let total = Int64(exactly: units) else {
                    throw .invalidQuery("S7, G1: the total of group \(groupID) in \(currency.code) overflows 64 bits")
                }
                totals.append(Money(minorUnits: total, currency: currency))
            }
            rows.append(GroupListRow(groupID: groupID, name: group.name, memberCount: group.members.count, totals: totals))
        }
        let byName = { (a: GroupListRow, b: GroupListRow) in (a.name, a.groupID) < (b.name, b.groupID) }
        switch order {
        case .name: return rows.sorted(by: byName)
        case .mostMembers:
            return rows.sorted { $0.memberCount != $1.memberCount ? $0.memberCount > $1.memberCount : byName($0, $1) }
        case .largestTotal:
            let largest = { (row: GroupListRow) in row.totals.map(\.minorUnits).max() ?? 0 }
            return rows.sorted { largest($0) != largest($1) ? largest($0) > largest($1) : byName($0, $1) }
        }
    }
}
