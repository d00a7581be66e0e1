import TallyModel

extension DebtProjection {
    /// Applies a settlement (S6): records the payment and marks the items it covers
    /// (``coveredItems(by:)``). Balances always use the payment itself, so a partial payment or
    /// an advance shows in the balance even when no item is marked.
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
        let covered = coveredItems(by: settlement)
        settlements[settlement.settlementID] = SettlementRecord(
            from: settlement.from, to: settlement.to, amount: settlement.amount, date: settlement.date,
            covers: settlement.covers, isAdvance: settlement.isAdvance, groupID: settlement.groupID,
            sequenceNumber: sequenceNumber, note: settlement.note, paymentMethod: settlement.paymentMethod)
        for entry in covered { settledItems[entry.key] = settlement.settlementID }
    }

    /// The open items `settlement` covers (S6, T2), in the order they are settled: the one rule
    /// of coverage, which marks the items here and tells the engine's validation state what a
    /// settlement references before it is recorded.
    ///
    /// With `covers`, the listed items between the two people that are still open, in the
    /// payment's currency and in the settlement's place (a group settlement: expenses of its group;
    /// a household one: transactions); what validation requires of every listed item. Without (a
    /// household settlement), the rule of ``SettlementCoverage`` over the open household items
    /// between the two people in the payment's currency, oldest first by date then transaction id.
    func coveredItems(by settlement: SettlementRecorded) -> [(key: DebtItemKey, item: DebtItem)] {
        let pair: Set<PersonID> = [settlement.from, settlement.to]
        if let covers = settlement.covers {
            let listed = Set(covers)
            var transactionIDs = Set<TransactionID>()
            var groupExpenseIDs = Set<GroupExpenseID>()
            for item in covers {
                switch item {
                case .transaction(let id): transactionIDs.insert(id)
                case .groupExpense(let id): groupExpenseIDs.insert(id)
                }
            }
            return itemEntries(transactionIDs: transactionIDs, groupExpenseIDs: groupExpenseIDs).filter { entry in
                let inPlace = switch entry.item.source {
                case .transaction: settlement.groupID == nil
                case .groupExpense(let id): settlement.groupID != nil && groupExpenses[id]?.groupID == settlement.groupID
                }
                return inPlace && entry.item.settledBy == nil && listed.contains(entry.item.source)
                    && pair == [entry.item.debtor, entry.item.creditor] && entry.item.amount.currency == settlement.amount.currency
            }
        }
        guard settlement.groupID == nil else { return [] }
        let open = itemEntries(transactionIDs: openTransactions, groupExpenseIDs: []).filter {
            $0.item.settledBy == nil && pair == [$0.item.debtor, $0.item.creditor]
                && $0.item.amount.currency == settlement.amount.currency
        }.sorted { ($0.item.date, $0.key.sourceID) < ($1.item.date, $1.key.sourceID) }
        let items = open.map {
            SettlementCoverage.Item(isOwedByPayer: $0.item.debtor == settlement.from, minorUnits: $0.item.amount.minorUnits)
        }
        let netOwed = owedMinorUnits(by: settlement.from, to: settlement.to, in: settlement.amount.currency)
        return SettlementCoverage.covered(items, payment: settlement.amount.minorUnits, netOwed: netOwed).map { open[$0] }
    }
}
