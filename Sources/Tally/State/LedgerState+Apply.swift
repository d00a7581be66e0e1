import TallyModel
import TallyProjections

extension LedgerState {
    /// Folds one event into the state and its read models: the one fold, used when executing
    /// commands, when replaying the journal and when rebuilding the store. Pure and
    /// deterministic (G3): no clock, no randomness.
    ///
    /// Events are trusted here (they were validated before they were written); an event naming
    /// an unknown entity is ignored rather than trapping, so a replay never crashes.
    package mutating func apply(_ event: Event) {
        let sequenceNumber = nextSequenceNumber
        nextSequenceNumber += 1
        let effect = effect(of: event.payload)
        record(event, sequenceNumber: sequenceNumber, effect: effect)
        exposure.record(event.payload, in: self)
        // The read models write the books (wallets, transactions, transfers, group expenses,
        // categories, goals, debts); what the state derives from them (category counts) reads
        // the record before and after.
        let before = RecordsBefore(of: event.payload, in: self)
        readModels.apply(event, sequenceNumber: sequenceNumber)
        mutate(event.payload, before: before)
    }

    /// Updates the command history (T5).
    private mutating func record(_ event: Event, sequenceNumber: UInt64, effect: EventEffect) {
        let command = event.commandID
        let tag = event.payload.tag
        // A command's events are contiguous: only its own earlier events can have made its entry.
        var entry = history.entryBeingApplied(for: command) ?? CommandHistory.Entry(firstSequenceNumber: sequenceNumber)
        switch event.payload {
        case .commandUndone(let undone):
            entry.target = undone.undoneCommandID
            history.setEntry(entry, for: command)
            history.updateEntry(for: undone.undoneCommandID) { undoneEntry in
                undoneEntry.isUndone = true
                undoneEntry.lastUndo = command
            }
            return
        case .commandRedone(let redone):
            entry.target = redone.redoneCommandID
            history.setEntry(entry, for: command)
            history.updateEntry(for: redone.redoneCommandID) { $0.isUndone = false }
            return
        case .periodClosed:
            history.setEntry(entry, for: command)
            history.add(CommandHistory.Touch(sequenceNumber: sequenceNumber, tag: tag, chain: command), to: .periods)
            return
        case .bonusRolledIn:
            // US-066: appended before the command when the 7 days are over; it stays like a close.
            history.setEntry(entry, for: command)
            return
        case .sampleDataLoaded(let loaded):
            // E5-S6: the sample commands ran earlier in this batch; flag what they created (the
            // keys they own that no other command touched before), not what they changed.
            let sampleCommands = Set(loaded.commandIDs)
            var keys = Set<EntityKey>()
            for id in loaded.commandIDs {
                for key in history.entry(for: id)?.owned ?? [] where history.touches(of: key).first.map({ sampleCommands.contains($0.chain) }) == true {
                    keys.insert(key)
                }
            }
            sample = SampleData(loadCommandID: command, commandIDs: loaded.commandIDs, keys: keys)
        case .sampleDataCleared:
            // E5-S6, T5: the clear is the last undo of every sample command (its `CommandUndone`
            // events follow), so none is redone: that redo would find this irreversible event.
            for id in sample?.commandIDs ?? [] {
                history.updateEntry(for: id) { $0.lastUndo = command }
            }
            sample = nil
        case .splitRatioRecalculated(let recalculated) where recalculated.periodStart != nil:
            // S4: appended at a period start with the close before it; it stays like the close.
            history.setEntry(entry, for: command)
            return
        default:
            break
        }
        let chain = entry.target ?? command
        entry.owned.formUnion(effect.owned)
        entry.effectCount += 1
        if let inverse = effect.inverse {
            entry.compensation.append(inverse)
        } else if entry.irreversibleTag == nil {
            entry.irreversibleTag = tag
        }
        history.setEntry(entry, for: command)
        let touch = CommandHistory.Touch(sequenceNumber: sequenceNumber, tag: tag, chain: chain)
        for key in Set(effect.owned + effect.referenced) {
            history.add(touch, to: key)
        }
    }

    /// Changes the entities an event is about.
    private mutating func mutate(_ payload: EventPayload, before: RecordsBefore) {
        switch payload {
        case .householdCreated(let created):
            household = HouseholdRecord(
                id: created.householdID, name: created.name, baseCurrency: created.baseCurrency, admin: created.admin)
            people[created.admin] = PersonRecord(name: created.adminName, isMember: true)
            addActiveMember(created.admin)
        case .baseCurrencyChanged(let changed):
            household?.baseCurrency = changed.baseCurrency
        case .memberAdded(let added):
            people[added.personID] = PersonRecord(name: added.name, isMember: true)
            addActiveMember(added.personID)
        case .memberRemoved(let removed):
            people[removed.personID]?.isRemoved = true
            activeMembers.removeAll { $0 == removed.personID }
        case .adminTransferred(let transferred):
            household?.admin = transferred.to
        case .personAdded(let added):
            people[added.personID] = PersonRecord(name: added.name, isMember: false)
        case .personArchived(let archived):
            people[archived.personID]?.isArchived = true
        case .personUnarchived(let unarchived):
            people[unarchived.personID]?.isArchived = false
        case .personForgotten(let forgotten):
            people[forgotten.personID]?.forgottenAt = nextSequenceNumber - 1
            people[forgotten.personID]?.name = .redacted(owner: forgotten.personID)
            if people[forgotten.personID]?.email != nil { people[forgotten.personID]?.email = .redacted(owner: forgotten.personID) }
            if people[forgotten.personID]?.phone != nil { people[forgotten.personID]?.phone = .redacted(owner: forgotten.personID) }
            people[forgotten.personID]?.avatar = nil
            for (id, record) in invitations where record.invitation.personID == forgotten.personID {
                invitations[id]?.invitation = record.invitation.redacted()
            }
            for (id, view) in views where view.owner == forgotten.personID {
                views[id] = view.renamed(.redacted(owner: forgotten.personID))
            }
        case .personAvatarSet(let set):
            people[set.personID]?.avatar = set.avatar.isEmpty ? nil : set.avatar
        case .memberInvited(let invited):
            // New, or pending again by the undo of a cancel (H6).
            invitations[invited.invitationID] = InvitationRecord(invitation: invited, outcome: nil)
        case .invitationCancelled(let cancelled):
            invitations[cancelled.invitationID]?.outcome = .cancelled
        case .invitationAccepted(let accepted):
            invitations[accepted.invitationID]?.outcome = .accepted
        case .personUpdated(let updated):
            people[updated.personID]?.name = updated.name
            people[updated.personID]?.email = updated.email
            people[updated.personID]?.phone = updated.phone
        case .walletOpened, .walletRenamed, .walletKindChanged, .walletDeactivated, .walletReactivated,
             .walletClosed, .balanceRecorded, .balanceRemoved, .transferRecorded, .transferEdited, .transferDeleted, .walletDesignationSet,
             .walletValuationSet, .walletConnectionSet, .walletReopened:
            break  // the wallet read model's book is all they change
        case .categoryCreated, .categoryRenamed, .categoryDeactivated, .categoryReactivated, .categoryDeleted,
             .categoryUpdated, .categoriesReordered, .categoryTaxClassSet:
            mutateCategories(payload, before: before)
        case .transactionRecorded, .transactionEdited, .transactionDeleted, .transactionRestored,
             .templateCreated, .templatePaused, .templateResumed, .templateActivated, .templatePriceChanged,
             .templateCancelled, .templateReinstated, .templateEdited, .templateProfileSet, .templateSharingAccepted, .occurrenceBillingMarked,
             .bonusConfirmed:
            mutateTransactions(payload, before: before.transaction)
        case .splitRatioSet(let set):
            splitRatio = set
            splitRatioSetting = set
            lastRatioRecalculation = nil
        case .splitRatioRecalculated(let recalculated):
            splitRatio = SplitRatioSet(mode: .incomeBased, ratios: recalculated.ratios)
            lastRatioRecalculation = recalculated
        case .groupExpenseRecorded, .groupExpenseEdited:
            countGroupExpenseCategories(payload, before: before.groupExpense)
        case .settlementRecorded, .groupCreated, .groupUpdated, .groupMemberAdded, .groupMemberRemoved, .groupArchived,
             .groupUnarchived, .groupDeleted, .groupRestored, .groupExpenseDeleted, .groupExpenseRestored, .groupExpenseSettledMarked:
            break  // the debt read model's books are all they change
        case .paydaySet:
            periods.update(paydays: readModels.budgets.paySchedule)  // the budget read model's rules, after this one
        case .periodClosed(let closed):
            periods.close(closed, paydays: readModels.budgets.paySchedule)
        case .budgetAllocated, .budgetRemoved, .incomeSettingsSet, .bonusMarked, .bonusAllocated, .bonusRolledIn:
            break  // the budget read model's allocations and settings are all they change
        case .goalCreated, .goalUpdated, .goalAmountSet, .goalDeleted, .goalRestored, .scenarioSaved, .scenarioDeleted,
             .scenarioActivated, .alertSettingsSet, .walletBalanceAlertSet:
            planning.apply(payload)
        case .importMappingSaved(let saved):
            importMappings[saved.name.lowercased()] = saved
        case .importMappingRemoved(let removed):
            importMappings[removed.name.lowercased()] = nil
        case .attachmentAdded, .attachmentRemoved:
            break  // the read models' attachment book is all they change
        case .viewSaved(let saved):
            views[saved.viewID] = saved
        case .viewRenamed(let renamed):
            views[renamed.viewID] = views[renamed.viewID].map { $0.renamed(renamed.name) }
        case .viewDeleted(let deleted):
            views[deleted.viewID] = nil
        case .exchangeRateSet, .firstWeekdaySet, .commandUndone, .commandRedone, .sampleDataLoaded, .sampleDataCleared:
            break
        }
    }

    private mutating func mutateCategories(_ payload: EventPayload, before: RecordsBefore) {
        switch payload {
        case .categoryCreated(let created):
            categoryCounts[created.categoryID] = CategoryCounts()
        case .categoryDeleted(let deleted):
            if let target = deleted.reassignedTo {
                reassign(from: deleted.categoryID, to: target, transactions: before.categoryTransactionCount)
            }
        default:
            break
        }
    }

    /// Moves every template of a deleted category to `target` (C3), and counts its
    /// `transactions` there (the read models' fold moved their records).
    private mutating func reassign(from source: CategoryID, to target: CategoryID, transactions: Int) {
        var moved = transactions
        var counted = 0
        for (id, template) in templates where template.categories.contains(source) {
            if template.details.categoryID == source { templates[id]?.details.categoryID = target }
            for (position, edit) in template.edits.enumerated() where edit.categoryID == source {
                var fields = edit.applied(to: template.details)
                fields.categoryID = target
                templates[id]?.edits[position] = TemplateEdited(id, from: edit.effectiveFrom, fields: fields, cycle: edit.cycle, nextBilling: edit.nextBilling)
            }
            moved += 1
            // A template already counted in the target (an edit used it) counts there once.
            if template.categories.contains(target) { counted += 1 }
        }
        categoryCounts[target]?.entries -= counted
        categoryCounts[source]?.entries -= moved
        categoryCounts[target]?.entries += moved
    }
}

/// The records an event changes in the read models' books (``LedgerState/transactions``,
/// ``LedgerState/groupExpenses``), as they were before it: what the state's own part of the fold
/// compares with the books after the read models applied the event.
struct RecordsBefore {
    var transaction: TransactionRecord?
    var groupExpense: GroupExpenseRecord?
    /// How many transactions a category deleted with a target had (C3): the book moves them.
    var categoryTransactionCount = 0

    init(of payload: EventPayload, in state: LedgerState) {
        transaction = payload.changedTransactionID.flatMap { state.transactions[$0] }
        groupExpense = DebtProjection.groupExpenseID(changedBy: payload).flatMap { state.groupExpenses[$0] }
        if case .categoryDeleted(let deleted) = payload, deleted.reassignedTo != nil {
            categoryTransactionCount = state.readModels.transactionIDs(in: deleted.categoryID).count
        }
    }
}
