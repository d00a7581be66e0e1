import TallyModel
import TallyProjections

extension LedgerState {
    /// What a transaction event changes besides its record, which the read models' fold wrote
    /// into the one book already (``readModels``): category members and counts, the live sums.
    /// `before` is the record before the event; a change the book refused changes nothing here.
    mutating func mutateTransactions(_ payload: EventPayload, before: TransactionRecord?) {
        switch payload {
        case .transactionRecorded(let recorded):
            insertTransaction(recorded.transactionID, before: before)
        case .templateActivated(let activated):
            insertTransaction(activated.transactionID, before: before)
            templates[activated.templateID]?.recordPosted(activated.details.date, activated.transactionID)
        case .transactionEdited(let edited):
            guard let record = before, let after = transactions[edited.transactionID], after.details == edited.details else { return }
            if !record.isDeleted { applyLiveEffects(record.details, sign: -1) }
            categories[record.details.categoryID]?.entryCount -= 1
            moveMember(edited.transactionID, from: record.details.categoryID, to: edited.details.categoryID)
            categories[edited.details.categoryID]?.entryCount += 1
            if !record.isDeleted { applyLiveEffects(edited.details, sign: 1) }
        case .transactionDeleted:
            guard let record = before, !record.isDeleted else { return }
            applyLiveEffects(record.details, sign: -1)
        case .transactionRestored:
            guard let record = before, record.isDeleted else { return }
            applyLiveEffects(record.details, sign: 1)
        case .templateCreated(let created):
            templates[created.templateID] = TemplateRecord(
                details: created.details,
                schedule: RecurringSchedule(frequency: created.frequency, anchor: created.details.date, basePrice: created.details.amount, terms: created.terms),
                sharing: created.terms?.sharing)
            categories[created.details.categoryID]?.entryCount += 1
        case .templatePaused(let paused):
            templates[paused.templateID]?.schedule.pause(from: paused.from, resumesOn: paused.resumesOn)
        case .templateResumed(let resumed):
            templates[resumed.templateID]?.schedule.resume(on: resumed.on)
        case .templatePriceChanged(let changed):
            templates[changed.templateID]?.schedule.changePrice(changed.amount, from: changed.effectiveFrom)
        case .templateCancelled(let cancelled):
            templates[cancelled.templateID]?.schedule.cancelledOn = cancelled.effectiveOn
        default:
            break
        }
    }

    /// A transaction the book recorded (not one it refused, or one recorded before).
    private mutating func insertTransaction(_ id: TransactionID, before: TransactionRecord?) {
        guard before == nil, let details = transactions[id]?.details else { return }
        moveMember(id, from: nil, to: details.categoryID)
        hasTransactions = true
        categories[details.categoryID]?.entryCount += 1
        applyLiveEffects(details, sign: 1)
    }

    /// Adds (`sign` 1) or removes (-1) a live transaction's effect on its wallet and on debts.
    private mutating func applyLiveEffects(_ details: TransactionDetails, sign: Int64) {
        let signedAmount = details.kind == .income ? details.amount.minorUnits : 0 &- details.amount.minorUnits
        if let wallet = wallets[details.walletID] {
            wallets[details.walletID]?.balanceMinorUnits &+= wallet.movementSign &* sign &* signedAmount
        }
        wallets[details.walletID]?.liveEntryCount += Int(sign)
        wallets[details.walletID]?.liveTransactionCount += Int(sign)
        if details.kind == .income, details.amount.currency == household?.baseCurrency {
            var payers = incomeByDate[details.date] ?? [:]
            let sum = (payers[details.payer] ?? 0) + Int128(sign) * Int128(details.amount.minorUnits)
            payers[details.payer] = sum == 0 ? nil : sum
            incomeByDate[details.date] = payers.isEmpty ? nil : payers
        }
        debts.household.add(details, sign: Int128(sign))
    }

    mutating func mutateSharing(_ payload: EventPayload) {
        switch payload {
        case .splitRatioSet(let set):
            splitRatio = set
        case .groupCreated(let created):
            groups[created.groupID] = GroupRecord(name: created.name, members: created.members)
        case .groupExpenseRecorded(let expense):
            groupExpenses[expense.expenseID] = GroupExpenseRecord(expense: expense)
            if let category = expense.categoryID { categories[category]?.groupExpenseCount += 1 }
            debts.groups.add(expense, sign: 1)
        case .groupExpenseEdited(let edited):
            let id = edited.expense.expenseID
            guard let record = groupExpenses[id] else { return }
            if !record.isDeleted { debts.groups.add(record.expense, sign: -1) }
            if let category = record.expense.categoryID { categories[category]?.groupExpenseCount -= 1 }
            groupExpenses.update(id) { $0.expense = edited.expense }
            if let category = edited.expense.categoryID { categories[category]?.groupExpenseCount += 1 }
            if !record.isDeleted { debts.groups.add(edited.expense, sign: 1) }
        case .groupExpenseDeleted(let deleted):
            guard let record = groupExpenses[deleted.expenseID], !record.isDeleted else { return }
            groupExpenses.update(deleted.expenseID) { $0.isDeleted = true }
            debts.groups.add(record.expense, sign: -1)
        case .groupExpenseRestored(let restored):
            guard let record = groupExpenses[restored.expenseID], record.isDeleted else { return }
            groupExpenses.update(restored.expenseID) { $0.isDeleted = false }
            debts.groups.add(record.expense, sign: 1)
        case .groupExpenseSettledMarked(let marked):
            groupExpenses.update(marked.expenseID) { $0.isMarkedSettled = marked.isSettled }
        case .settlementRecorded(let settlement):
            applySettlement(settlement)
        default:
            break
        }
    }

    private mutating func applySettlement(_ settlement: SettlementRecorded) {
        // The debt read model recorded it in its book by this event (not refused, not recorded before).
        guard settlements[settlement.settlementID]?.sequenceNumber == nextSequenceNumber - 1 else { return }
        if settlement.groupID != nil {
            for item in settlement.covers ?? [] {
                guard case .groupExpense(let id) = item, groupExpenses[id]?.settledBy == nil else { continue }
                groupExpenses.update(id) { $0.settledBy = settlement.settlementID }
            }
            debts.groups.add(settlement)
            return
        }
        for id in settledTransactions(by: settlement) {
            readModels.markSettled(id, by: settlement.settlementID)
        }
        debts.household.add(settlement)
    }

    /// Keeps `openSharedTransactions` in step with the transactions an event changed.
    mutating func updateOpenSharedTransactions(after payload: EventPayload) {
        if let id = payload.changedTransactionID { refreshOpenShared(id) }
        if case .settlementRecorded = payload { for id in openSharedTransactions { refreshOpenShared(id) } }
    }

    mutating func refreshOpenShared(_ id: TransactionID) {
        if let record = transactions[id], !record.isDeleted, record.settledBy == nil, record.details.split != nil {
            openSharedTransactions.insert(id)
        } else {
            openSharedTransactions.remove(id)
        }
    }

    /// The household transactions a settlement covers (S6, T2): an explicit list, or the rule
    /// of ``SettlementCoverage`` over the open shared items between the two people.
    func settledTransactions(by settlement: SettlementRecorded) -> [TransactionID] {
        if let covers = settlement.covers {
            return covers.compactMap { item in
                if case .transaction(let id) = item { return id }
                return nil
            }
        }
        let pair: Set<PersonID> = [settlement.from, settlement.to]
        var open: [(id: TransactionID, date: LocalDate, item: SettlementCoverage.Item)] = []
        for id in openSharedTransactions {
            guard let record = transactions[id], !record.isDeleted, record.settledBy == nil,
                  record.details.amount.currency == settlement.amount.currency,
                  let debt = record.details.debts.first(where: { pair == [$0.debtor, $0.creditor] })
            else { continue }
            open.append((id, record.details.date, SettlementCoverage.Item(
                isOwedByPayer: debt.debtor == settlement.from, minorUnits: debt.amount.minorUnits)))
        }
        open.sort { ($0.date, $0.id) < ($1.date, $1.id) }
        let netOwed = debts.owed(by: settlement.from, to: settlement.to, in: settlement.amount.currency)
        return SettlementCoverage.covered(open.map(\.item), payment: settlement.amount.minorUnits, netOwed: netOwed)
            .map { open[$0].id }
    }
}

extension TemplateRecord {
    /// Records that the occurrence on `date` was posted as `transactionID`, keeping date order.
    mutating func recordPosted(_ date: LocalDate, _ transactionID: TransactionID) {
        guard !posted.contains(where: { $0.date == date }) else { return }
        let position = posted.firstIndex { $0.date > date } ?? posted.endIndex
        posted.insert(PostedOccurrence(date: date, transactionID: transactionID), at: position)
    }

    /// Whether the occurrence on `date` was posted.
    func isPosted(_ date: LocalDate) -> Bool { posted.contains { $0.date == date } }
}
