import TallyModel

/// Net debts between pairs of people and balances inside groups, per currency (S5, S7).
///
/// Validation uses it for H4 (removing a member with unsettled debt) and S6 (a settlement may
/// not exceed what is owed). The debt read model with its item lists is a projection; this is
/// only the netted sums. Amounts stay far from `Int64` limits because every entered amount is
/// capped at ``LedgerLimits/amountMinorUnitsMax``.
package struct DebtBook: Sendable, Equatable {
    /// A pair of people (lower id first) and a currency.
    struct PairKey: Hashable, Sendable {
        var lower: PersonID
        var higher: PersonID
        var currency: Currency
    }

    /// A person's balance in one group and currency.
    struct GroupKey: Hashable, Sendable {
        var group: GroupID
        var person: PersonID
        var currency: Currency
    }

    /// What `lower` owes `higher` (negative: `higher` owes `lower`).
    internal(set) var pairs: [PairKey: Int64] = [:]
    /// Paid minus owed per group member (S7); positive = is owed money.
    internal(set) var groupBalances: [GroupKey: Int64] = [:]

    /// Creates an empty book.
    package init() {}

    /// Records that `debtor` owes `creditor` `amount` more (negative amounts reduce the debt).
    mutating func add(debtor: PersonID, creditor: PersonID, amount: Money) {
        guard debtor != creditor, amount.minorUnits != 0 else { return }
        let key = PairKey(lower: min(debtor, creditor), higher: max(debtor, creditor), currency: amount.currency)
        let signed = debtor < creditor ? amount.minorUnits : 0 &- amount.minorUnits
        let total = (pairs[key] ?? 0) &+ signed
        pairs[key] = total == 0 ? nil : total
    }

    /// What `debtor` owes `creditor` in `currency`, net (negative: the creditor owes the debtor).
    package func owed(by debtor: PersonID, to creditor: PersonID, in currency: Currency) -> Int64 {
        guard debtor != creditor else { return 0 }
        let key = PairKey(lower: min(debtor, creditor), higher: max(debtor, creditor), currency: currency)
        let value = pairs[key] ?? 0
        return debtor < creditor ? value : 0 &- value
    }

    /// Every non-zero net debt involving `person`, as (other person, amount `person` owes them),
    /// sorted by currency then person.
    package func openDebts(of person: PersonID) -> [(other: PersonID, owed: Money)] {
        pairs.compactMap { key, value -> (PersonID, Money)? in
            if key.lower == person { return (key.higher, Money(minorUnits: value, currency: key.currency)) }
            if key.higher == person { return (key.lower, Money(minorUnits: 0 &- value, currency: key.currency)) }
            return nil
        }
        .sorted { ($0.1.currency, $0.0) < ($1.1.currency, $1.0) }
        .map { (other: $0.0, owed: $0.1) }
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
