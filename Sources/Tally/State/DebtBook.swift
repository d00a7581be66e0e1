import TallyModel

/// Net debts between pairs of people and balances inside groups, per currency (S5, S7).
///
/// Validation uses it for H4 (removing a member with unsettled debt), S6 (a settlement may not
/// exceed what is owed) and S8 (a member leaves a group, or a group is deleted, only when
/// settled). The debt read model with its item lists is a projection; this is only the running
/// sums, kept by the same rules as that projection: ``DebtNets`` for the household pairs,
/// ``GroupNets`` for the groups. Sums are `Int128`; the reads here give `Int64`, saturated to
/// `-Int64.max...Int64.max` (so negating a read never traps), though every entered amount is
/// capped at ``LedgerLimits/amountMinorUnitsMax``.
package struct DebtBook: Sendable, Equatable {
    /// What each pair of people owes the other: ``DebtNets``, the debt read model's rule.
    internal(set) var household = DebtNets()
    /// Each group member's paid, owed and settled totals (S7): ``GroupNets``, the debt read
    /// model's rule.
    internal(set) var groups = GroupNets()

    /// Creates an empty book.
    package init() {}

    /// `units` saturated to `-Int64.max...Int64.max`.
    static func clamped(_ units: Int128) -> Int64 {
        Int64(clamping: Swift.max(units, -Int128(Int64.max)))
    }

    /// What `debtor` owes `creditor` in `currency`, net (negative: the creditor owes the debtor).
    package func owed(by debtor: PersonID, to creditor: PersonID, in currency: Currency) -> Int64 {
        Self.clamped(household.owed(by: debtor, to: creditor, in: currency))
    }

    /// Every non-zero net debt involving `person`, as (other person, amount `person` owes them),
    /// sorted by currency then person.
    package func openDebts(of person: PersonID) -> [(other: PersonID, owed: Money)] {
        household.nets(of: person).map { net in
            (other: net.other, owed: Money(minorUnits: Self.clamped(net.owed), currency: net.currency))
        }
    }

    /// A member's balance in a group (paid - owed, settlements included; positive: is owed money).
    package func groupBalance(_ group: GroupID, person: PersonID, currency: Currency) -> Int64 {
        Self.clamped(groups.totals(of: person, in: group, currency: currency).balance)
    }

    /// Every non-zero group balance of `person`, sorted by group then currency.
    package func openGroupBalances(of person: PersonID) -> [(group: GroupID, balance: Money)] {
        groups.balances(of: person).map { entry in
            (group: entry.group, balance: Money(minorUnits: Self.clamped(entry.balance), currency: entry.currency))
        }
    }
}
