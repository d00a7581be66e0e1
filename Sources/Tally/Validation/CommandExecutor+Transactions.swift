import TallyModel
import TallyProjections

extension CommandExecutor {
    func validateTransaction(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .recordTransaction(let id, let entry):
            guard state.transactions[id] == nil else { throw .violation(.duplicateID, "transaction id \(id) is already used") }
            let details = try resolve(entry, previous: nil, author: command.actor)
            return [.transactionRecorded(TransactionRecorded(
                transactionID: id, details: details, splitWith: entry.splitWith, originalAmount: entry.originalAmount,
                payee: try entered(entry.payee, by: command.actor),
                subtitle: try entered(entry.subtitle, by: command.actor)))]
        case .editTransaction(let id, let entry):
            let record = try liveTransaction(id)
            try requireUnsettled(id, "edited")
            let details = try resolve(entry, previous: record.details, author: command.actor)
            return [.transactionEdited(TransactionEdited(
                transactionID: id, details: details, splitWith: entry.splitWith, originalAmount: entry.originalAmount,
                payee: try entered(entry.payee, by: command.actor, keeping: record.payee),
                subtitle: try entered(entry.subtitle, by: command.actor, keeping: record.subtitle)))]
        case .deleteTransaction(let id):
            _ = try liveTransaction(id)
            try requireUnsettled(id, "deleted")
            return [.transactionDeleted(TransactionDeleted(transactionID: id))]
        case .restoreTransaction(let id):
            guard let record = state.transactions[id] else { throw .violation(.unknownTransaction, "no transaction has id \(id)") }
            guard record.isDeleted else { throw .violation(.transactionNotDeleted, "transaction \(id) is not deleted, so there is nothing to restore") }
            _ = try usableWallet(record.details.walletID)
            return [.transactionRestored(TransactionRestored(transactionID: id))]
        case .createTemplate(let id, let frequency, let entry, let terms):
            return try createTemplate(id, frequency: frequency, entry: entry, terms: terms, actor: command.actor)
        case .pauseTemplate(let id, let from, let resumesOn):
            return try pauseTemplate(id, from: from, resumesOn: resumesOn, today: try commandDate(command))
        case .resumeTemplate(let id, let on):
            return try resumeTemplate(id, on: on, today: try commandDate(command))
        case .activateTemplate(let id, let transactionID, let date):
            return try activateTemplate(id, transactionID: transactionID, date: date)
        default:
            return []
        }
    }

    /// T4: the occurrence must be one computed from the anchor (within
    /// ``LedgerLimits/templateOccurrencesMax``), billed (not in a pause or the free trial) and
    /// not posted yet (R1); it is recorded at the price in effect on its date.
    private func activateTemplate(_ id: TemplateID, transactionID: TransactionID, date: LocalDate) throws(LedgerError) -> [EventPayload] {
        let template = try existingTemplate(id)
        try requireNotCancelled(id, template, on: date)
        guard state.transactions[transactionID] == nil else {
            throw .violation(.duplicateID, "transaction id \(transactionID) is already used")
        }
        guard let occurrence = template.schedule.occurrence(on: date), occurrence.index < LedgerLimits.templateOccurrencesMax else {
            throw .violation(.notAnOccurrence, "\(date) is not an occurrence of the template anchored on \(template.details.date)")
        }
        switch occurrence.status {
        case .paused: throw .violation(.templateStateUnchanged, "template \(id) is paused on \(date); resume it first")
        case .trial: throw .violation(.notAnOccurrence, "\(date) falls in the free trial of template \(id), which ends on \(template.schedule.trialEndsOn?.description ?? "")")
        case .billed: break
        }
        guard !template.isPosted(date) else {
            throw .violation(.occurrenceAlreadyPosted, "the occurrence of template \(id) on \(date) is already recorded")
        }
        return [.templateActivated(TemplateActivated(templateID: id, transactionID: transactionID, details: try occurrenceDetails(template, occurrence)))]
    }
    /// The transaction with `id` unless it is deleted (T3).
    func liveTransaction(_ id: TransactionID) throws(LedgerError) -> TransactionRecord {
        guard let record = state.transactions[id] else { throw .violation(.unknownTransaction, "no transaction has id \(id)") }
        guard !record.isDeleted else {
            throw .violation(.transactionDeleted, "transaction \(id) is deleted; restore it first")
        }
        return record
    }

    private func requireUnsettled(_ id: TransactionID, _ verb: String) throws(LedgerError) {
        if let settlement = state.debts.settlement(coveringTransaction: id) {
            throw .violation(.editOfSettledTransaction, "transaction \(id) is covered by settlement \(settlement) and cannot be \(verb); settlements are permanent, record a correcting transaction instead")
        }
    }

    func existingTemplate(_ id: TemplateID) throws(LedgerError) -> TemplateRecord {
        guard let template = state.templates[id] else { throw .violation(.unknownTemplate, "no template has id \(id)") }
        return template
    }

    /// Checks an entry (T1) and resolves its split (S2, S3). For an edit, an unchanged wallet
    /// or category may be inactive, and an unchanged note keeps its author (P1); a new note is
    /// personal text of `author`, who is also the payer when the entry names none.
    func resolve(_ entry: TransactionEntry, previous: TransactionDetails?, author: PersonID) throws(LedgerError) -> TransactionDetails {
        try requirePositive(entry.amount, "amount")
        let wallet = previous?.walletID == entry.walletID ? try existingWallet(entry.walletID) : try usableWallet(entry.walletID)
        try requireCurrency(entry.amount, of: wallet)
        if let original = entry.originalAmount {
            try requirePositive(original, "originalAmount")
            guard original.currency != wallet.currency else {
                throw .violation(.originalAmountInvalid, "originalAmount is for a charge in another currency than \(wallet.name)'s \(wallet.currency); leave it out for an amount in \(wallet.currency) (T7)")
            }
        }
        let category = previous?.categoryID == entry.categoryID
            ? try existingCategory(entry.categoryID) : try usableCategory(entry.categoryID)
        let expectedGroup: CategoryGroup = entry.kind == .income ? .income : .expense
        guard category.group == expectedGroup else {
            throw .violation(.categoryGroupMismatch, "an \(entry.kind) needs an \(expectedGroup) category; \(category.name) is an \(category.group) category")
        }
        let payer = entry.payer ?? author
        try requireActiveMember(payer, role: "the payer")
        var split: TransactionSplit?
        if let people = entry.splitWith {
            guard category.shareable else {
                throw .violation(.categoryNotShareable, "\(category.name) is not shareable; pick a shareable category to split with people")
            }
            split = try splitWithPeople(people, entry, payer: payer)
        } else if entry.isShared {
            guard category.shareable else {
                throw .violation(.categoryNotShareable, "\(category.name) is not shareable; pick a shareable category or record a personal transaction")
            }
            split = try resolveSplit(entry, payer: payer)
        }
        let note = try entered(entry.note, by: author, keeping: previous?.note)
        return TransactionDetails(
            kind: entry.kind, amount: entry.amount, walletID: entry.walletID, categoryID: entry.categoryID,
            date: entry.date, note: note, tags: entry.tags, payer: payer, split: split)
    }

    /// 18.4: a split with chosen people (members or contacts, not forgotten), resolved by the
    /// group expense rule (S3, zero residue); someone other than the payer must get a part. The
    /// ratios of the stored split are empty: the parts are the decision (G4).
    private func splitWithPeople(_ people: GroupSplit, _ entry: TransactionEntry, payer: PersonID) throws(LedgerError) -> TransactionSplit {
        guard entry.ratioOverride == nil else {
            throw .violation(.invalidShares, "give either ratioOverride (the household members) or splitWith (chosen people), not both")
        }
        let shares = try resolvePeopleSplit(people, amount: entry.amount, payer: payer) { (person) throws(LedgerError) in
            try requireKnownPerson(person)
            if state.people[person]?.isForgotten == true {
                throw .violation(.personForgotten, "person \(person) is forgotten and cannot share a transaction")
            }
        }
        guard shares.contains(where: { $0.person != payer && !$0.amount.isZero }) else {
            throw .violation(.invalidShares, "a split with people needs a part for someone other than the payer \(name(of: payer))")
        }
        return TransactionSplit(ratios: [], isOverride: true, shares: shares)
    }

    /// S2: the override or the household ratio; S3: shares by largest remainder, payer first in ties.
    private func resolveSplit(_ entry: TransactionEntry, payer: PersonID) throws(LedgerError) -> TransactionSplit {
        let members = state.activeMembers
        guard members.count >= 2 else {
            throw .violation(.sharingNeedsTwoMembers, "a shared transaction needs at least two members; the household has \(members.count)")
        }
        let ratios: [MemberRatio]
        if let override = entry.ratioOverride {
            try requireRatiosSum(override)
            for ratio in override { try requireActiveMember(ratio.person, role: "a person in the override") }
            ratios = override
        } else {
            guard let household = state.effectiveRatios() else {
                throw .violation(.sharingNeedsTwoMembers, "no split ratio can be formed for this household")
            }
            guard Set(household.map(\.person)) == Set(members) else {
                throw .violation(.splitRatioMembersMismatch, "the household split ratio does not list the current members; set the split ratio again")
            }
            ratios = household
        }
        let shares: [PersonShare]
        do {
            shares = try Allocation.split(entry.amount, ratios: ratios, payer: payer)
        } catch {
            throw .violation(.invalidValue, "the split cannot be resolved: \(error.message)")
        }
        return TransactionSplit(ratios: ratios, isOverride: entry.ratioOverride != nil, shares: shares)
    }

    /// S1/S2/S7: ratios sum to exactly 10000 bp and list nobody twice.
    func requireRatiosSum(_ ratios: [MemberRatio]) throws(LedgerError) {
        let total = ratios.reduce(Int64(0)) { $0 + $1.ratio.basisPoints }
        guard total == 10_000 else {
            throw .violation(.splitRatiosMustSumTo100, "split ratios must sum to exactly 100% (10000 bp), got \(total) bp")
        }
        guard Set(ratios.map(\.person)).count == ratios.count else {
            throw .violation(.splitRatioMembersMismatch, "a person is listed twice in the split ratios")
        }
    }
}
