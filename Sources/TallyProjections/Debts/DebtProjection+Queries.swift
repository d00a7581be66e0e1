import TallyModel

extension DebtProjection {
    /// Every debt item with its key, oldest first (date, then sequence number, then person).
    ///
    /// A live shared transaction gives one item per share of a person other than the payer:
    /// for an expense that person owes the payer; for a shared income the payer owes them.
    /// A group expense gives one item per owed part of a member other than the payer.
    ///
    /// O(history): with a store, every transaction, group expense and settled item
    /// is read from it once.
    func itemEntries(includeGroups: Bool = true) -> [(key: DebtItemKey, item: DebtItem)] {
        let settled = settledItems.allEntries
        return itemEntries(
            transactions: transactions.allEntries, groupExpenses: includeGroups ? groupExpenses.allEntries : [:],
            settledBy: { settled[$0] })
    }

    /// The items of the given transactions and group expenses, ordered as `itemEntries()`.
    func itemEntries(
        transactionIDs: some Sequence<TransactionID>, groupExpenseIDs: some Sequence<GroupExpenseID>
    ) -> [(key: DebtItemKey, item: DebtItem)] {
        itemEntries(
            transactions: transactionIDs.compactMap { id in transactions[id].map { (key: id, value: $0) } },
            groupExpenses: groupExpenseIDs.compactMap { id in groupExpenses[id].map { (key: id, value: $0) } },
            settledBy: { settledItems[$0] })
    }

    private func itemEntries(
        transactions: some Sequence<(key: TransactionID, value: TransactionRecord)>,
        groupExpenses: some Sequence<(key: GroupExpenseID, value: GroupExpenseRecord)>,
        settledBy: (DebtItemKey) -> SettlementID?
    ) -> [(key: DebtItemKey, item: DebtItem)] {
        var entries: [(key: DebtItemKey, item: DebtItem, order: UInt64)] = []
        for (id, record) in transactions where record.isLive {
            for debt in record.details.debts {
                let key = DebtItemKey(.transaction(id), person: debt.person)
                entries.append((key, DebtItem(
                    source: .transaction(id), debtor: debt.debtor, creditor: debt.creditor, amount: debt.amount,
                    date: record.details.date, settledBy: settledBy(key)), record.sequenceNumber))
            }
        }
        for (id, expense) in groupExpenses where expense.isLive {
            for share in expense.owed where share.person != expense.paidBy && !share.amount.isZero {
                let key = DebtItemKey(.groupExpense(id), person: share.person)
                entries.append((key, DebtItem(
                    source: .groupExpense(id), debtor: share.person, creditor: expense.paidBy, amount: share.amount,
                    date: expense.date, settledBy: settledBy(key)), expense.sequenceNumber))
            }
        }
        entries.sort { ($0.item.date, $0.order, $0.key) < ($1.item.date, $1.order, $1.key) }
        return entries.map { ($0.key, $0.item) }
    }

    /// Household debts between every pair of people, per currency (S5), sorted by the pair's
    /// ids then currency. A balance is net of every live shared item and every household
    /// settlement between the two; pairs whose balance is zero and have no open item are left out.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func householdBalances() throws(ProjectionError) -> [PairBalance] {
        let nets = householdNets.nets
        var open: [DebtNets.Pair: [DebtItem]] = [:]
        for (_, item) in itemEntries(includeGroups: false) where item.settledBy == nil {
            let (debtor, creditor) = (item.debtor, item.creditor)
            open[DebtNets.Pair(low: min(debtor, creditor), high: max(debtor, creditor), currency: item.amount.currency), default: []].append(item)
        }
        var result: [PairBalance] = []
        for pair in Set(nets.keys).union(open.keys).sorted() {
            let net = nets[pair] ?? 0
            let items = open[pair] ?? []
            guard net != 0 || !items.isEmpty else { continue }
            let amount = try MoneySum(units: net, currency: pair.currency)
                .money(rule: "S5", subject: "debt between \(pair.low) and \(pair.high)")
            result.append(PairBalance(personA: pair.low, personB: pair.high, aOwesB: amount, openItems: items))
        }
        return result
    }

    /// The household net between every pair and currency that is not zero (S5), sorted like
    /// ``householdBalances()`` and equal to its `aOwesB` values, without the open items: from
    /// the running nets, O(pairs), not O(every item).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func householdNetBalances() throws(ProjectionError) -> [(personA: PersonID, personB: PersonID, aOwesB: Money)] {
        try householdNets.nets.sorted { $0.key < $1.key }.map { pair, net throws(ProjectionError) in
            let amount = try MoneySum(units: net, currency: pair.currency)
                .money(rule: "S5", subject: "debt between \(pair.low) and \(pair.high)")
            return (pair.low, pair.high, amount)
        }
    }

    /// What `debtor` owes `creditor` in `currency` from household items and settlements (S5):
    /// negative when `creditor` owes `debtor`. Always `-owed(by: creditor, to: debtor)`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func owed(by debtor: PersonID, to creditor: PersonID, in currency: Currency) throws(ProjectionError) -> Money {
        try MoneySum(units: householdNets.owed(by: debtor, to: creditor, in: currency), currency: currency)
            .money(rule: "S5", subject: "debt between \(min(debtor, creditor)) and \(max(debtor, creditor))")
    }

    /// The items (open and settled) of household transactions, oldest first; for one person's
    /// view pass `involving` (G7: only shared entries are ever listed here).
    public func householdItems(involving person: PersonID? = nil) -> [DebtItem] {
        itemEntries(includeGroups: false).map(\.item).filter { person == nil || $0.debtor == person || $0.creditor == person }
    }

    /// The ids of every group that is not deleted, sorted.
    public var groupIDs: [GroupID] { groups.filter { !$0.value.isDeleted }.keys.sorted() }

    /// A group's description, emoji and whether it is archived (takes no new expenses), `nil`
    /// for an unknown or deleted group (Docs/Editing.md).
    public func groupState(_ groupID: GroupID) -> (description: String?, emoji: String?, isArchived: Bool)? {
        groups[groupID].flatMap { $0.isDeleted ? nil : ($0.description, $0.emoji, $0.isArchived) }
    }

    /// A group's name and members, `nil` for an unknown group.
    public func group(_ groupID: GroupID) -> (name: String, members: [PersonID])? {
        groups[groupID].map { ($0.name, $0.members) }
    }

    /// The member balances of a group per currency (S7), sorted by currency then person; every
    /// member appears in every currency the group used, and so does everyone a live expense or a
    /// settlement of the group names in it. Per currency they sum to exactly zero (S8). Read from
    /// the running totals (``GroupNets``): O(members of the group), not O(its history).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func groupBalances(_ groupID: GroupID) throws(ProjectionError) -> [Currency: [GroupMemberBalance]] {
        try groupBalances(groupID, nets: groupNets)
    }

    /// ``groupBalances(_:)`` from `nets` (the running totals, or those as of a date).
    private func groupBalances(_ groupID: GroupID, nets: GroupNets) throws(ProjectionError) -> [Currency: [GroupMemberBalance]] {
        guard let group = groups[groupID] else { return [:] }
        var totals: [Currency: [PersonID: GroupNets.Totals]] = [:]
        for (member, entry) in nets.members(of: groupID) {
            totals[member.currency, default: [:]][member.person] = entry
        }
        var result: [Currency: [GroupMemberBalance]] = [:]
        for (currency, byPerson) in totals.sorted(by: { $0.key < $1.key }) {
            var balances: [GroupMemberBalance] = []
            for person in Set(group.members).union(byPerson.keys).sorted() {
                let entry = byPerson[person] ?? GroupNets.Totals()
                func money(_ units: Int128) throws(ProjectionError) -> Money {
                    try MoneySum(units: units, currency: currency).money(rule: "S7", subject: "group balance of \(person)")
                }
                balances.append(GroupMemberBalance(
                    person: person, paid: try money(entry.paid), owed: try money(entry.owed),
                    settlementsPaid: try money(entry.settlementsPaid), settlementsReceived: try money(entry.settlementsReceived),
                    balance: try money(entry.balance)))
            }
            result[currency] = balances
        }
        return result
    }

    /// The simplified settlement plan of a group per currency (S8): repeatedly the largest
    /// creditor and the largest debtor (ties: the lower person id) settle the smaller of their
    /// two amounts. Each transfer clears at least one member, so there are at most n-1 transfers
    /// for n members with a non-zero balance.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func settlementPlan(_ groupID: GroupID) throws(ProjectionError) -> [Currency: [PlannedTransfer]] {
        try settlementPlan(groupID, nets: groupNets)
    }

    /// ``settlementPlan(_:)`` from `nets` (the running totals, or those as of a date).
    private func settlementPlan(_ groupID: GroupID, nets: GroupNets) throws(ProjectionError) -> [Currency: [PlannedTransfer]] {
        var result: [Currency: [PlannedTransfer]] = [:]
        for (currency, balances) in try groupBalances(groupID, nets: nets) {
            var open = balances.filter { !$0.balance.isZero }.map { ($0.person, Int128($0.balance.minorUnits)) }
            var transfers: [PlannedTransfer] = []
            while true {
                let creditors = open.indices.filter { open[$0].1 > 0 }
                let debtors = open.indices.filter { open[$0].1 < 0 }
                let pick = { (candidates: [Int], magnitude: (Int) -> Int128) -> Int? in
                    candidates.min { magnitude($0) != magnitude($1) ? magnitude($0) > magnitude($1) : open[$0].0 < open[$1].0 }
                }
                guard let creditor = pick(creditors, { open[$0].1 }), let debtor = pick(debtors, { -open[$0].1 }) else { break }
                let amount = min(open[creditor].1, -open[debtor].1)
                open[creditor].1 -= amount
                open[debtor].1 += amount
                transfers.append(PlannedTransfer(
                    from: open[debtor].0, to: open[creditor].0,
                    amount: try MoneySum(units: amount, currency: currency).money(rule: "S8", subject: "planned transfer")))
            }
            result[currency] = transfers
        }
        return result
    }
}

extension DebtProjection {
    /// The live expenses of a group, oldest first (date, then the order they were recorded),
    /// with their settled state (S7; Docs/Editing.md "Group expenses"); empty for an unknown group.
    /// O(group expenses ever recorded).
    public func groupExpenses(in groupID: GroupID) -> [GroupExpenseSummary] {
        groupExpenses { $0.groupID == groupID }
    }

    /// The live expenses `person` paid or has a part of, across every group that is not
    /// deleted (Swiff 1.3.1 history), ordered like ``groupExpenses(in:)``. O(group expenses
    /// ever recorded).
    public func groupExpenses(involving person: PersonID) -> [GroupExpenseSummary] {
        let live = Set(groupIDs)
        return groupExpenses { expense in
            live.contains(expense.groupID) && (expense.paidBy == person || expense.owed.contains { $0.person == person })
        }
    }

    /// The live expenses `belongs` selects, oldest first, with their settled state.
    private func groupExpenses(where belongs: (GroupExpenseRecord) -> Bool) -> [GroupExpenseSummary] {
        groupExpenses.allEntries.filter { $0.value.isLive && belongs($0.value) }
            .sorted { ($0.value.date, $0.value.sequenceNumber) < ($1.value.date, $1.value.sequenceNumber) }
            .map { id, expense in
                // A part is covered when nobody owes it (the payer's own, a zero part) or a settlement lists it.
                var covered = true
                let parts = expense.owed.map { share in
                    let owesNothing = share.person == expense.paidBy || share.amount.isZero
                    let settlement = owesNothing ? nil : settledItems[DebtItemKey(.groupExpense(id), person: share.person)]
                    covered = covered && (owesNothing || settlement != nil)
                    return GroupExpensePart(
                        person: share.person, amount: share.amount, settlement: settlement,
                        isPaid: owesNothing || settlement != nil || expense.isMarkedSettled)
                }
                return GroupExpenseSummary(
                    expenseID: id, groupID: expense.groupID, paidBy: expense.paidBy, amount: expense.amount, date: expense.date,
                    title: expense.title, note: expense.note, categoryID: expense.categoryID, owed: expense.owed,
                    isMarkedSettled: expense.isMarkedSettled, isSettled: expense.isMarkedSettled || covered, parts: parts)
            }
    }
}

extension DebtProjection {
    /// `person`'s balance with everyone they owe or are owed by, per currency, across the
    /// household and every group (``PersonBalance``), sorted by the other person's id then
    /// currency; zero balances are left out. O(household pairs + the person's groups' members).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)``.
    public func personBalances(of person: PersonID) throws(ProjectionError) -> [PersonBalance] {
        try personBalances(of: person, household: householdNets, groups: groupNets)
    }

    /// ``personBalances(of:)`` from `householdNets` and `groupNets` (the running nets, or those
    /// as of a date: ``personBalanceHistory(of:with:)``).
    func personBalances(of person: PersonID, household householdNets: DebtNets, groups groupNets: GroupNets) throws(ProjectionError) -> [PersonBalance] {
        struct Key: Hashable, Comparable {
            let other: PersonID
            let currency: Currency
            static func < (left: Key, right: Key) -> Bool { (left.other, left.currency) < (right.other, right.currency) }
        }
        var household: [Key: Int128] = [:]
        var groupParts: [Key: [GroupID: Int128]] = [:]
        for pair in householdNets.nets.keys where pair.low == person || pair.high == person {
            let other = pair.low == person ? pair.high : pair.low
            household[Key(other: other, currency: pair.currency)] = -householdNets.owed(by: person, to: other, in: pair.currency)
        }
        for groupID in groupIDs where groups[groupID]?.members.contains(person) == true {
            for (currency, transfers) in try settlementPlan(groupID, nets: groupNets) {
                for transfer in transfers where transfer.from == person || transfer.to == person {
                    let other = transfer.from == person ? transfer.to : transfer.from
                    let signed = Int128(transfer.amount.minorUnits) * (transfer.to == person ? 1 : -1)
                    groupParts[Key(other: other, currency: currency), default: [:]][groupID, default: 0] += signed
                }
            }
        }
        var result: [PersonBalance] = []
        for key in Set(household.keys).union(groupParts.keys).sorted() {
            func money(_ units: Int128) throws(ProjectionError) -> Money {
                try MoneySum(units: units, currency: key.currency).money(rule: "S5", subject: "balance of \(person) with \(key.other)")
            }
            let parts = groupParts[key] ?? [:]
            let total = parts.values.reduce(household[key] ?? 0, +)
            guard total != 0 || !parts.isEmpty else { continue }
            var groups: [GroupID: Money] = [:]
            for (group, units) in parts { groups[group] = try money(units) }
            result.append(PersonBalance(
                person: person, other: key.other, owedToPerson: try money(total), household: try money(household[key] ?? 0), groups: groups))
        }
        return result
    }

    /// Every recorded settlement (S6: they are permanent), oldest first: by date, then the order
    /// they were recorded. O(settlements ever recorded).
    public func settlementHistory() -> [SettlementEntry] {
        settlements.allEntries.sorted { ($0.value.date, $0.value.sequenceNumber) < ($1.value.date, $1.value.sequenceNumber) }
            .map { id, settlement in
                SettlementEntry(
                    settlementID: id, from: settlement.from, to: settlement.to, amount: settlement.amount, date: settlement.date,
                    groupID: settlement.groupID, isAdvance: settlement.isAdvance, sequenceNumber: settlement.sequenceNumber,
                    note: settlement.note?.description, paymentMethod: settlement.paymentMethod)
            }
    }
}

extension DebtProjection {
    /// The live shared transactions with a share of someone other than the payer that no
    /// settlement covers yet (S6), unordered: what a settled / pending filter of a transaction
    /// list reads (`TransactionQuery.settled`). O(open items).
    package var openTransactionIDs: [TransactionID] { Array(openTransactions) }

    /// The ids of every settlement recorded (unordered; S6): what a rebuild of the store writes.
    package var settlementIDs: some Collection<SettlementID> { settlements.allEntries.keys }
}
