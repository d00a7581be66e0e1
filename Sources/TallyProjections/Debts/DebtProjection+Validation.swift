import TallyModel

/// What the engine's validation reads of the debt book (H4, S6, S8, T2): the nets it keeps
/// (``DebtNets``, ``GroupNets``, `Int128` sums) read as `Int64`, saturated to
/// `-Int64.max...Int64.max` (so negating a read never traps; every entered amount is capped
/// at `LedgerLimits.amountMinorUnitsMax`), and which settlement covers an item.
extension DebtProjection {
    /// `units` saturated to `-Int64.max...Int64.max`.
    static func clamped(_ units: Int128) -> Int64 {
        Int64(clamping: Swift.max(units, -Int128(Int64.max)))
    }

    /// What `debtor` owes `creditor` in `currency`, net (negative: the creditor owes the debtor).
    package func owedMinorUnits(by debtor: PersonID, to creditor: PersonID, in currency: Currency) -> Int64 {
        Self.clamped(householdNets.owed(by: debtor, to: creditor, in: currency))
    }

    /// Every non-zero net debt involving `person`, as (other person, amount `person` owes them),
    /// sorted by currency then person.
    package func openDebts(of person: PersonID) -> [(other: PersonID, owed: Money)] {
        householdNets.nets(of: person).map { net in
            (other: net.other, owed: Money(minorUnits: Self.clamped(net.owed), currency: net.currency))
        }
    }

    /// A member's balance in a group (paid - owed, settlements included; positive: is owed money).
    package func groupBalance(_ group: GroupID, person: PersonID, currency: Currency) -> Int64 {
        Self.clamped(groupNets.totals(of: person, in: group, currency: currency).balance)
    }

    /// Every non-zero group balance of `person`, sorted by group then currency.
    package func openGroupBalances(of person: PersonID) -> [(group: GroupID, balance: Money)] {
        groupNets.balances(of: person).map { entry in
            (group: entry.group, balance: Money(minorUnits: Self.clamped(entry.balance), currency: entry.currency))
        }
    }

    /// A settlement covering one of transaction `id`'s items, if any (T2, S6): such a
    /// transaction is permanent.
    package func settlement(coveringTransaction id: TransactionID) -> SettlementID? {
        guard let record = transactions[id] else { return nil }
        return record.details.debts.lazy.compactMap { self.settledItems[DebtItemKey(.transaction(id), person: $0.person)] }.first
    }

    /// A settlement covering one of group expense `id`'s owed parts, if any (S6): such an
    /// expense is permanent.
    package func settlement(coveringGroupExpense id: GroupExpenseID) -> SettlementID? {
        guard let record = groupExpenses[id] else { return nil }
        return record.owed.lazy.filter { $0.person != record.paidBy }
            .compactMap { self.settledItems[DebtItemKey(.groupExpense(id), person: $0.person)] }.first
    }

    /// The transactions and group expenses `settlement` would cover if it were recorded now
    /// (``coveredItems(by:)``), each once, in the order of their first covered item.
    package func coveredSources(by settlement: SettlementRecorded) -> [SettledItem] {
        var seen = Set<SettledItem>()
        return coveredItems(by: settlement).map(\.item.source).filter { seen.insert($0).inserted }
    }
}
