import TallyModel
import TallyProjections

extension LedgerState {
    /// What a transaction event changes besides its record, which the read models' fold wrote
    /// into the one book already (``readModels``, with its category index): category counts,
    /// template postings.
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
            categoryCounts[record.details.categoryID]?.entries -= 1
            categoryCounts[edited.details.categoryID]?.entries += 1
        case .templateCreated(let created):
            templates[created.templateID] = TemplateRecord(
                details: created.details,
                schedule: RecurringSchedule(frequency: created.frequency, anchor: created.details.date, basePrice: created.details.amount, terms: created.terms),
                sharing: created.terms?.sharing)
            categoryCounts[created.details.categoryID]?.entries += 1
        case .templatePaused(let paused):
            templates[paused.templateID]?.schedule.pause(from: paused.from, resumesOn: paused.resumesOn)
        case .templateResumed(let resumed):
            templates[resumed.templateID]?.schedule.resume(on: resumed.on)
        case .templatePriceChanged(let changed):
            templates[changed.templateID]?.schedule.changePrice(changed.amount, from: changed.effectiveFrom)
        case .templateCancelled(let cancelled):
            templates[cancelled.templateID]?.schedule.cancelledOn = cancelled.effectiveOn
            templates[cancelled.templateID]?.cancelReason = cancelled.reason
        case .templateReinstated(let reinstated):
            templates[reinstated.templateID]?.schedule.cancelledOn = nil
            templates[reinstated.templateID]?.cancelReason = nil
        case .templateEdited(let edited):
            guard let before = templates[edited.templateID]?.categories else { return }
            templates[edited.templateID]?.apply(edited)
            let after = templates[edited.templateID]?.categories ?? before
            for category in before.subtracting(after) { categoryCounts[category]?.entries -= 1 }
            for category in after.subtracting(before) { categoryCounts[category]?.entries += 1 }
        case .templateProfileSet(let set):
            templates[set.templateID]?.profile = set.profile
        case .occurrenceBillingMarked(let marked):
            templates[marked.templateID]?.mark(marked)
        case .templateSharingAccepted(let answer):
            guard var accepted = templates[answer.templateID]?.acceptedBy else { return }
            accepted.removeAll { $0 == answer.person }
            if answer.accepted { accepted.append(answer.person) }
            templates[answer.templateID]?.acceptedBy = accepted.sorted()
        default:
            break
        }
    }

    /// A transaction the book recorded (not one it refused, or one recorded before).
    private mutating func insertTransaction(_ id: TransactionID, before: TransactionRecord?) {
        guard before == nil, let details = transactions[id]?.details else { return }
        hasTransactions = true
        categoryCounts[details.categoryID]?.entries += 1
    }

    /// Keeps the categories' group expense counts (C3) as the debt read model's book recorded
    /// or edited an expense: `before` is its record before the event.
    mutating func countGroupExpenseCategories(_ payload: EventPayload, before: GroupExpenseRecord?) {
        guard let id = DebtProjection.groupExpenseID(changedBy: payload), let after = groupExpenses[id],
              after.expense != before?.expense else { return }
        if let category = before?.expense.categoryID { categoryCounts[category]?.groupExpenses -= 1 }
        if let category = after.expense.categoryID { categoryCounts[category]?.groupExpenses += 1 }
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
