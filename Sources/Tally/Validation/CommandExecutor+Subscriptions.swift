import TallyModel

/// R1: recurring items and subscriptions: creation with terms, pause and resume with dates,
/// price changes, cancel, and posting the due occurrences.
extension CommandExecutor {
    func validateSubscription(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .changeTemplatePrice(let id, let amount, let effectiveFrom):
            let template = try existingTemplate(id)
            try requireNotCancelled(id, template, on: effectiveFrom)
            try requirePositive(amount, "price")
            guard amount.currency == template.details.amount.currency else {
                throw .violation(.currencyMismatch, "the price of template \(id) is in \(template.details.amount.currency), not \(amount.currency)")
            }
            guard effectiveFrom >= template.details.date else {
                throw .violation(.recurringTermsInvalid, "a price change takes effect on or after the anchor \(template.details.date), not \(effectiveFrom)")
            }
            try requireAfterPosted(template, id, effectiveFrom, "is already recorded at the old price; a price change takes effect after it")
            return [.templatePriceChanged(TemplatePriceChanged(templateID: id, amount: amount, effectiveFrom: effectiveFrom))]
        case .cancelTemplate(let id, let effectiveOn, let reason):
            let template = try existingTemplate(id)
            try requireNotCancelled(id, template, on: nil)
            try requireAfterPosted(template, id, effectiveOn, "is already recorded; cancel after it (or delete its transaction, T3)")
            let text = try entered(reason, by: command.actor)
            return [.templateCancelled(TemplateCancelled(templateID: id, effectiveOn: effectiveOn, reason: text))]
        case .postDueOccurrences(let through):
            return try postDueOccurrences(through: through)
        case .editTemplate(let id, let effectiveFrom, let name, let categoryID, let walletID, let tags, let cycle, let nextBilling):
            let edit = TemplateFieldsEdit(name: name, categoryID: categoryID, walletID: walletID, tags: tags, cycle: cycle, nextBilling: nextBilling)
            return [.templateEdited(try editTemplate(id, from: effectiveFrom, edit, author: command.actor))]
        case .setTemplateProfile(let id, let description, let website, let paymentMethod, let icon, let color):
            _ = try existingTemplate(id)
            let profile = TemplateProfile(
                description: try entered(description, by: command.actor), website: website,
                paymentMethod: try entered(paymentMethod, by: command.actor), icon: icon, color: color)
            return [.templateProfileSet(TemplateProfileSet(templateID: id, profile: profile))]
        case .setSharingAcceptance(let id, let person, let accepted):
            return [.templateSharingAccepted(try sharingAcceptance(id, person: person, accepted: accepted, actor: command.actor))]
        case .markOccurrenceBilling(let id, let date, let status):
            let template = try existingTemplate(id)
            guard template.isPosted(date) else {
                throw .violation(.notAnOccurrence, "template \(id) has no posted occurrence on \(date); post it first (postDueOccurrences)")
            }
            guard template.billingStatus(on: date) != status else {
                throw .violation(.templateStateUnchanged, "the occurrence of template \(id) on \(date) is \(status) already")
            }
            return [.occurrenceBillingMarked(OccurrenceBillingMarked(templateID: id, date: date, status: status))]
        default:
            return []
        }
    }

    /// Swiff 1.1.2 SharedSubscription: `person` is one of the item's sharing; a member answers
    /// for themselves, a contact's answer comes from the item's payer; the answer changes
    /// something. An item the actor does not see is unknown to them (G7).
    private func sharingAcceptance(_ id: TemplateID, person: PersonID, accepted: Bool, actor: PersonID) throws(LedgerError) -> TemplateSharingAccepted {
        let template = try existingTemplate(id)
        guard Viewer.member(actor).sees(template) else { throw .violation(.unknownTemplate, "no template has id \(id)") }
        guard template.sharing?.weights.contains(where: { $0.person == person }) == true else {
            throw .violation(.sharingAcceptanceInvalid, "\(name(of: person)) is not among the people template \(id) is shared with")
        }
        let isMember = state.people[person]?.isMember == true
        guard isMember ? actor == person : actor == template.latestDetails.payer else {
            throw .violation(.sharingAcceptanceInvalid, isMember
                ? "only \(name(of: person)) answers for their own part of template \(id)"
                : "a contact's answer is recorded by the item's payer, \(name(of: template.latestDetails.payer))")
        }
        guard template.acceptedBy.contains(person) != accepted else {
            throw .violation(.templateStateUnchanged, "\(name(of: person)) has \(accepted ? "accepted" : "not accepted") their part of template \(id) already")
        }
        return TemplateSharingAccepted(templateID: id, person: person, accepted: accepted)
    }

    /// T4, R1: the entry as for a transaction; terms checked; a split among members replaces
    /// the household split, resolved at the anchor price.
    func createTemplate(
        _ id: TemplateID, frequency: RecurrenceFrequency, entry: TransactionEntry, terms: TemplateTerms?, actor: PersonID
    ) throws(LedgerError) -> [EventPayload] {
        guard state.templates[id] == nil else { throw .violation(.duplicateID, "template id \(id) is already used") }
        guard entry.splitWith == nil else {
            throw .violation(.recurringTermsInvalid, "a template splits among people through its terms' sharing (R1), not splitWith")
        }
        guard entry.originalAmount == nil else {
            throw .violation(.originalAmountInvalid, "a template's price is in its wallet's currency; record the amount charged in another currency on each transaction (T7)")
        }
        guard entry.payee == nil, entry.subtitle == nil else {
            throw .violation(.invalidValue, "a template's title is its name (note); leave payee and subtitle out, they are for transactions (Swiff 1.1.2)")
        }
        var plain = entry
        if terms?.sharing != nil { (plain.isShared, plain.ratioOverride) = (false, nil) }
        var details = try resolve(plain, previous: nil, author: actor)
        if let terms {
            try requireTerms(terms, anchor: entry.date)
            if let sharing = terms.sharing {
                try requireSharing(sharing, price: entry.amount, categoryID: entry.categoryID, payer: details.payer)
                do { details.split = try sharing.split(entry.amount, payer: details.payer) } catch {
                    throw .violation(.invalidValue, "the split cannot be resolved: \(error.message)")
                }
            }
        }
        let stored = terms == TemplateTerms() ? nil : terms
        return [.templateCreated(TemplateCreated(templateID: id, frequency: frequency, details: details, terms: stored))]
    }

    /// R1 "this and all future": the fields in effect on `date` with the given ones replaced,
    /// checked as a transaction's would be (T1: usable wallet in the item's currency, a category
    /// of the item's kind, shareable when the item is shared). The edit takes effect after the
    /// last posted occurrence and on or after the anchor, on a running item.
    private func editTemplate(_ id: TemplateID, from date: LocalDate, _ edit: TemplateFieldsEdit, author: PersonID) throws(LedgerError) -> TemplateEdited {
        let template = try existingTemplate(id)
        try requireNotCancelled(id, template, on: date)
        guard date >= template.details.date else {
            throw .violation(.recurringTermsInvalid, "an edit takes effect on or after the anchor \(template.details.date), not \(date)")
        }
        try requireAfterPosted(template, id, date, "is already recorded; an edit takes effect after it (edit that transaction for it alone, T2)")
        if edit.cycle != nil, template.schedule.cycleChanges.count >= LedgerLimits.cycleChangesMax {
            throw .violation(.inputTooLarge, "template \(id) has \(template.schedule.cycleChanges.count) cycle changes, the most one item has (LedgerLimits.cycleChangesMax); cancel it and create a new one with the cycle wanted")
        }
        if let nextBilling = edit.nextBilling {
            guard edit.cycle != nil else { throw .violation(.recurringTermsInvalid, "nextBilling starts a new cycle: give the cycle too") }
            guard nextBilling >= date else {
                throw .violation(.recurringTermsInvalid, "the next billing \(nextBilling) comes before the edit's first day \(date)")
            }
        }
        let current = template.details(on: date)
        let walletID = edit.walletID ?? current.walletID
        if walletID != current.walletID { try requireCurrency(template.details.amount, of: try usableWallet(walletID)) }
        let categoryID = edit.categoryID ?? current.categoryID
        if categoryID != current.categoryID {
            let category = try usableCategory(categoryID)
            let expectedGroup: CategoryGroup = current.kind == .income ? .income : .expense
            guard category.group == expectedGroup else {
                throw .violation(.categoryGroupMismatch, "an \(current.kind) item needs an \(expectedGroup) category; \(category.name) is an \(category.group) category")
            }
            if current.split != nil || template.sharing != nil, !category.shareable {
                throw .violation(.categoryNotShareable, "\(category.name) is not shareable and the item is shared; pick a shareable category")
            }
        }
        let note: PersonalText? = switch edit.name {
        case nil: current.note
        case ""?: nil
        case let name?: try entered(Optional(name), by: author, keeping: current.note)
        }
        let edited = TemplateEdited(
            templateID: id, effectiveFrom: date, note: note, categoryID: categoryID, walletID: walletID,
            tags: edit.tags ?? current.tags, cycle: edit.cycle, nextBilling: edit.nextBilling)
        guard edit.cycle != nil || edited.note != current.note || categoryID != current.categoryID || walletID != current.walletID
            || edited.tags != current.tags else {
            throw .violation(.templateStateUnchanged, "the edit of template \(id) changes nothing from \(date)")
        }
        return edited
    }

    /// The business date a command was recorded on (UTC), the default date of a pause or a
    /// resume given without one: host-supplied and stored in the event, so replay is the same.
    func commandDate(_ command: Command) throws(LedgerError) -> LocalDate {
        do {
            return try command.recordedAt.utcDate()
        } catch {
            throw .violation(.recurringTermsInvalid, "the command's recordedAt \(command.recordedAt) has no calendar date: \(error)")
        }
    }

    /// R1: a change dated on or before an occurrence already posted would rewrite what was
    /// billed; it takes effect after the last posted one.
    private func requireAfterPosted(_ template: TemplateRecord, _ id: TemplateID, _ date: LocalDate, _ consequence: String) throws(LedgerError) {
        if let posted = template.posted.last, date <= posted.date {
            throw .violation(.occurrenceAlreadyPosted, "the occurrence of template \(id) on \(posted.date) \(consequence)")
        }
    }

    /// R1: a pause needs a running template (not paused without end, not cancelled); its
    /// resume date comes after its first day. Without a first day it starts on the command's
    /// date, or after the last posted occurrence if that is later: what was posted stays billed.
    func pauseTemplate(_ id: TemplateID, from: LocalDate?, resumesOn: LocalDate?, today: LocalDate) throws(LedgerError) -> [EventPayload] {
        let template = try existingTemplate(id)
        try requireNotCancelled(id, template, on: nil)
        guard !template.schedule.isPausedIndefinitely else { throw .violation(.templateStateUnchanged, "template \(id) is paused already") }
        let afterPosted = try template.posted.last.map { posted throws(LedgerError) in
            do { return try posted.date.adding(days: 1) } catch { throw .violation(.recurringTermsInvalid, "no day follows \(posted.date)") }
        }
        let from = from ?? max(today, afterPosted ?? today)
        try requireAfterPosted(template, id, from, "is already recorded; a pause starts after it")
        if let resumesOn, resumesOn <= from {
            throw .violation(.recurringTermsInvalid, "the resume date \(resumesOn) must come after the pause's first day \(from)")
        }
        return [.templatePaused(TemplatePaused(templateID: id, from: from, resumesOn: resumesOn))]
    }

    /// R1: a resume needs a pause without end, or one that ends after `on`. Without a date it
    /// resumes on the command's date (or on the pause's first day, if that is later): the
    /// occurrences the pause skipped stay skipped.
    func resumeTemplate(_ id: TemplateID, on: LocalDate?, today: LocalDate) throws(LedgerError) -> [EventPayload] {
        let template = try existingTemplate(id)
        try requireNotCancelled(id, template, on: nil)
        let on = on ?? max(today, template.schedule.pauses.last?.from ?? today)
        guard let last = template.schedule.pauses.last, last.until.map({ end in on < end }) ?? true else {
            throw .violation(.templateStateUnchanged, "template \(id) is running already")
        }
        if let from = last.from, on < from {
            throw .violation(.recurringTermsInvalid, "the resume date \(on) comes before the pause's first day \(from)")
        }
        return [.templateResumed(TemplateResumed(templateID: id, on: on))]
    }

    /// R1: every billed occurrence dated up to `through` and not posted, per template in id
    /// order and by date; the transaction id is derived from (template, date), the key that
    /// makes posting idempotent.
    private func postDueOccurrences(through: LocalDate) throws(LedgerError) -> [EventPayload] {
        var events: [EventPayload] = []
        for id in state.templates.keys.sorted() {
            guard let template = state.templates[id] else { continue }
            let due = template.schedule.occurrences(from: template.details.date, through: through, limit: LedgerLimits.templateOccurrencesMax)
            if due.count == LedgerLimits.templateOccurrencesMax, let last = due.last, last.date < through {
                throw .violation(.inputTooLarge, "template \(id) reaches its \(LedgerLimits.templateOccurrencesMax)th occurrence on \(last.date), the most one template has (LedgerLimits.templateOccurrencesMax); nothing after it can be posted: cancel it and create a new one from that date on")
            }
            let posted = Set(template.posted.map(\.date))
            for occurrence in due where occurrence.status == .billed && !posted.contains(occurrence.date) {
                guard events.count < LedgerLimits.occurrencesPerPostMax else {
                    throw .violation(.inputTooLarge, "more than \(LedgerLimits.occurrencesPerPostMax) occurrences are due through \(through) (LedgerLimits.occurrencesPerPostMax); post through an earlier date first")
                }
                let transactionID = TransactionID.occurrence(of: id, on: occurrence.date)
                guard state.transactions[transactionID] == nil else {
                    throw .violation(.duplicateID, "transaction id \(transactionID) of the occurrence of template \(id) on \(occurrence.date) is already used")
                }
                events.append(.templateActivated(TemplateActivated(
                    templateID: id, transactionID: transactionID, details: try occurrenceDetails(template, occurrence))))
            }
        }
        return events
    }

    /// The transaction of an occurrence: the template's fields in effect on the occurrence's
    /// date (its edits, "this and all future") at its price, the split re-resolved for that
    /// price (S3); the wallet and category must be usable.
    func occurrenceDetails(_ template: TemplateRecord, _ occurrence: ScheduledOccurrence) throws(LedgerError) -> TransactionDetails {
        var details = template.details(on: occurrence.date)
        _ = try usableWallet(details.walletID)
        _ = try usableCategory(details.categoryID)
        details.date = occurrence.date
        details.amount = occurrence.price
        do { details.split = try state.occurrenceSplit(of: template, details, price: occurrence.price) } catch {
            throw .violation(.invalidValue, "the split cannot be resolved: \(error.message)")
        }
        return details
    }

    /// Throws `templateCancelled` when the template is cancelled (on or before `date`, or at all when `nil`).
    func requireNotCancelled(_ id: TemplateID, _ template: TemplateRecord, on date: LocalDate?) throws(LedgerError) {
        guard let cancelledOn = template.schedule.cancelledOn else { return }
        if let date, date < cancelledOn { return }
        throw .violation(.templateCancelled, "template \(id) is cancelled from \(cancelledOn); its history stays, create a new one to start again")
    }

    private func requireTerms(_ terms: TemplateTerms, anchor: LocalDate) throws(LedgerError) {
        if terms.endDate != nil, terms.occurrenceCount != nil {
            throw .violation(.recurringTermsInvalid, "give an end date or an occurrence count, not both")
        }
        if let endDate = terms.endDate, endDate < anchor {
            throw .violation(.recurringTermsInvalid, "the end date \(endDate) comes before the anchor \(anchor)")
        }
        if let count = terms.occurrenceCount, !(1...Int64(LedgerLimits.templateOccurrencesMax)).contains(count) {
            throw .violation(.recurringTermsInvalid, "the occurrence count must be 1...\(LedgerLimits.templateOccurrencesMax), got \(count)")
        }
        if let trialEndsOn = terms.trialEndsOn, trialEndsOn <= anchor {
            throw .violation(.recurringTermsInvalid, "the free trial must end after the anchor \(anchor), not on \(trialEndsOn)")
        }
    }

    /// R1 split among people (members or contacts, Swiff 1.1.2): two or more people, each once,
    /// members active, nobody forgotten; equal weights 1, percent summing to 10000 bp, exact
    /// amounts summing to the price, free weights 0 with someone besides the payer.
    private func requireSharing(_ sharing: TemplateSharing, price: Money, categoryID: CategoryID, payer: PersonID) throws(LedgerError) {
        let category = try existingCategory(categoryID)
        guard category.shareable else {
            throw .violation(.categoryNotShareable, "\(category.name) is not shareable; pick a shareable category or keep the item personal")
        }
        guard sharing.weights.count >= 2 || (sharing.kind == .free && sharing.weights.contains { $0.person != payer }) else {
            throw .violation(.sharingNeedsTwoMembers, "a split among people needs at least two people (free: someone besides the payer), got \(sharing.weights.count)")
        }
        guard Set(sharing.weights.map(\.person)).count == sharing.weights.count else {
            throw .violation(.splitRatioMembersMismatch, "a person is listed twice in the split")
        }
        for weight in sharing.weights {
            try requireKnownPerson(weight.person)
            if state.people[weight.person]?.isMember == true { try requireActiveMember(weight.person, role: "a person in the split") }
            if state.people[weight.person]?.isForgotten == true {
                throw .violation(.personForgotten, "person \(weight.person) is forgotten and cannot share a recurring item")
            }
            guard weight.weight >= 0 else { throw .violation(.recurringTermsInvalid, "a split weight is negative: \(weight.weight)") }
        }
        let total = sharing.weights.reduce(Int128(0)) { $0 + Int128($1.weight) }
        switch sharing.kind {
        case .equal:
            guard sharing.weights.allSatisfy({ $0.weight == 1 }) else {
                throw .violation(.recurringTermsInvalid, "an equal split weighs everyone 1")
            }
        case .percent:
            guard total == 10_000 else {
                throw .violation(.splitRatiosMustSumTo100, "split percentages must sum to exactly 100% (10000 bp), got \(total) bp")
            }
        case .exact:
            guard total == Int128(price.minorUnits) else {
                throw .violation(.exactSplitMustSumToTotal, "exact shares must sum to the price \(price.formatted()), got \(total) minor units")
            }
        case .free:
            guard total == 0 else { throw .violation(.recurringTermsInvalid, "a free share weighs everyone 0: the payer bears the price") }
        }
    }
}

extension TransactionID {
    /// The id of the transaction an occurrence is posted as: derived from the template and the
    /// date, so that the same occurrence always gets the same id (R1 idempotency, G5).
    package static func occurrence(of template: TemplateID, on date: LocalDate) -> TransactionID {
        .derived(namespace: template.value, name: "occurrence." + date.isoString)
    }
}

/// The fields an `editTemplate` command gives; absent ones stay.
private struct TemplateFieldsEdit {
    let name: String?
    let categoryID: CategoryID?
    let walletID: WalletID?
    let tags: [String]?
    let cycle: RecurrenceFrequency?
    let nextBilling: LocalDate?
}
