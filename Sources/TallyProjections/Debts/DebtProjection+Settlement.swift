import TallyModel

extension DebtProjection {
    /// Applies a settlement (S6): records the payment and marks the items it covers.
    ///
    /// With `covers`, the listed items between the two people are marked settled. Without, the
    /// rule of ``SettlementCoverage`` decides. Balances always use the payment itself, so a
    /// partial payment or an advance shows in the balance even when no item is marked.
    mutating func settle(_ settlement: SettlementRecorded, _ sequenceNumber: UInt64) {
        guard settlements[settlement.settlementID] == nil else {
            return problem(sequenceNumber, "S6", "settlement \(settlement.settlementID) is recorded twice")
        }
        guard settlement.amount.isPositive, settlement.from != settlement.to else {
            return problem(sequenceNumber, "S6", "settlement \(settlement.settlementID) has a non-positive amount or pays oneself")
        }
        if let groupID = settlement.groupID, groups[groupID] == nil {
            return problem(sequenceNumber, "S6", "settlement \(settlement.settlementID) names unknown group \(groupID)")
        }
        settlements[settlement.settlementID] = SettlementRecord(
            from: settlement.from, to: settlement.to, amount: settlement.amount, date: settlement.date,
            covers: settlement.covers, isAdvance: settlement.isAdvance, groupID: settlement.groupID,
            sequenceNumber: sequenceNumber)
        let pair: Set<PersonID> = [settlement.from, settlement.to]
        if let covers = settlement.covers {
            let covered = Set(covers)
            let transactionIDs = covers.compactMap { item -> TransactionID? in
                if case .transaction(let id) = item { return id } else { return nil }
            }
            let groupExpenseIDs = covers.compactMap { item -> GroupExpenseID? in
                if case .groupExpense(let id) = item { return id } else { return nil }
            }
            for entry in itemEntries(transactionIDs: Set(transactionIDs), groupExpenseIDs: Set(groupExpenseIDs))
            where covered.contains(entry.item.source) && pair == [entry.item.debtor, entry.item.creditor] {
                mark(entry.key, settlement.settlementID)
            }
        } else if settlement.groupID == nil {
            settleOldestFirst(settlement, pair: pair)
        }
    }

    private mutating func mark(_ key: DebtItemKey, _ settlementID: SettlementID) {
        if settledItems[key] == nil { settledItems[key] = settlementID }
    }

    /// S6 without a list: the rule of ``SettlementCoverage`` (shared with the engine) over the
    /// open household items between the two people, oldest first by date then transaction id.
    private mutating func settleOldestFirst(_ settlement: SettlementRecorded, pair: Set<PersonID>) {
        let open = itemEntries(transactionIDs: openTransactions, groupExpenseIDs: []).filter {
            $0.item.settledBy == nil && pair == [$0.item.debtor, $0.item.creditor]
                && $0.item.amount.currency == settlement.amount.currency
        }.sorted { ($0.item.date, $0.key.sourceID) < ($1.item.date, $1.key.sourceID) }
        let items = open.map {
            SettlementCoverage.Item(isOwedByPayer: $0.item.debtor == settlement.from, minorUnits: $0.item.amount.minorUnits)
        }
        let netOwed = householdNet(owedBy: settlement.from, to: settlement.to, in: settlement.amount.currency)
        for index in SettlementCoverage.covered(items, payment: settlement.amount.minorUnits, netOwed: netOwed) {
            mark(open[index].key, settlement.settlementID)
        }
    }
}
