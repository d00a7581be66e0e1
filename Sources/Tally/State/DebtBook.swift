import TallyModel

/// Net debts between pairs of people and balances inside groups, per currency (S5, S7).
///
/// Validation uses it for H4 (removing a member with unsettled debt) and S6 (a settlement may
/// not exceed what is owed). The debt read model with its item lists is a projection; this is
/// only the netted sums, the household ones kept by the same ``DebtNets`` as that projection.
/// Amounts stay far from `Int64` limits because every entered amount is capped at
/// ``LedgerLimits/amountMinorUnitsMax``.
package struct DebtBook: Sendable, Equatable {
    /// A person's balance in one group and currency.
    struct GroupKey: Hashable, Sendable {
        var group: GroupID
        var person: PersonID
        var currency: Currency
    }

    /// What each pair of people owes the other: ``DebtNets``, the debt read model's rule.
    internal(set) var household = DebtNets()
    /// Paid minus owed per group member (S7); positive = is owed money.
    internal(set) var groupBalances: [GroupKey: Int64] = [:]

    /// Creates an empty book.
    package init() {}

    /// What `debtor` owes `creditor` in `currency`, net (negative: the creditor owes the debtor).
    package func owed(by debtor: PersonID, to creditor: PersonID, in currency: Currency) -> Int64 {
        Int64(clamping: household.owed(by: debtor, to: creditor, in: currency))
    }

    /// Every non-zero net debt involving `person`, as (other person, amount `person` owes them),
    /// sorted by currency then person.
    package func openDebts(of person: PersonID) -> [(other: PersonID, owed: Money)] {
        household.nets(of: person).map { net in
            (other: net.other, owed: Money(minorUnits: Int64(clamping: net.owed), currency: net.currency))
        }
    }

    /// Adds to a member's balance in a group.
    mutating func addToGroup(_ group: GroupID, person: PersonID, amount: Money) {
        let key = GroupKey(group: group, person: person, currency: amount.currency)
        let total = (groupBalances[key] ?? 0) &+ amount.minorUnits
        groupBalances[key] = total == 0 ? nil : total
    }

    /// A member's balance in a group (paid - owed, settlements included).
    package func groupBalance(_ group: GroupID, person: PersonID, currency: Currency) -> Int64 {
        groupBalances[GroupKey(group: group, person: person, currency: currency)] ?? 0
    }

    /// Every non-zero group balance of `person`, sorted by group then currency.
    package func openGroupBalances(of person: PersonID) -> [(group: GroupID, balance: Money)] {
        groupBalances.filter { $0.key.person == person }
            .map { (group: $0.key.group, balance: Money(minorUnits: $0.value, currency: $0.key.currency)) }
            .sorted { ($0.group, $0.balance.currency) < ($1.group, $1.balance.currency) }
    }
}
