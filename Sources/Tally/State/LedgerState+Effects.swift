import TallyModel

extension LedgerState {
    /// The keys an event owns and references and its compensating events, against the state
    /// before the event (T5). Creations compensate softly (a wallet or category is deactivated,
    /// a transaction deleted, a template paused), since ids are never recorded twice; a group
    /// deletion is undone by `GroupRestored`, a person's archive by `PersonUnarchived`, a
    /// template's cancel by `TemplateReinstated`; events without a compensating event in the
    /// catalog (household and membership changes, deletions of categories and transfers,
    /// settlements, group creation, payday, exchange rates, bonus confirmations) are irreversible.
    func effect(of payload: EventPayload) -> EventEffect {
        switch payload {
        case .householdCreated:
            return EventEffect(owned: [.household])
        case .baseCurrencyChanged:
            let inverse = household.map { [EventPayload.baseCurrencyChanged(BaseCurrencyChanged(baseCurrency: $0.baseCurrency))] }
            return EventEffect(owned: [.baseCurrency], inverse: inverse)
        case .memberAdded(let added):
            return EventEffect(owned: [.person(added.personID)])
        case .memberRemoved(let removed):
            return EventEffect(owned: [.person(removed.personID)])
        case .adminTransferred(let transferred):
            return EventEffect(
                owned: [.admin], referenced: [.person(transferred.from), .person(transferred.to)],
                inverse: [.adminTransferred(AdminTransferred(from: transferred.to, to: transferred.from))])
        case .personAdded(let added):
            return EventEffect(owned: [.person(added.personID)])
        case .personArchived(let archived):
            // H3, T5: undo takes the person back; redo archives them again.
            return EventEffect(owned: [.person(archived.personID)], inverse: [.personUnarchived(PersonUnarchived(personID: archived.personID))])
        case .personUnarchived(let unarchived):
            return EventEffect(owned: [.person(unarchived.personID)], inverse: [.personArchived(PersonArchived(personID: unarchived.personID))])
        case .personForgotten(let forgotten):
            return EventEffect(owned: [.person(forgotten.personID)])
        case .firstWeekdaySet:
            // T5: the first weekday as it was (Monday until set).
            return EventEffect(owned: [.firstWeekday], inverse: [.firstWeekdaySet(FirstWeekdaySet(firstWeekday: readModels.budgets.firstWeekday))])
        case .memberInvited(let invited):
            // H6, T5: undoing an invitation cancels it; undoing a cancel makes it pending again.
            return EventEffect(
                owned: [.invitation(invited.invitationID)],
                inverse: [.invitationCancelled(InvitationCancelled(invitationID: invited.invitationID))])
        case .invitationCancelled(let cancelled):
            return EventEffect(
                owned: [.invitation(cancelled.invitationID)],
                inverse: invitations[cancelled.invitationID].map { [.memberInvited($0.invitation)] })
        case .invitationAccepted(let accepted):
            // A membership change: irreversible, like MemberAdded that follows it.
            return EventEffect(owned: [.invitation(accepted.invitationID)])
        case .personUpdated(let updated):
            let inverse = people[updated.personID].map { old in
                [EventPayload.personUpdated(PersonUpdated(personID: updated.personID, name: old.name, email: old.email, phone: old.phone))]
            }
            return EventEffect(owned: [.person(updated.personID)], inverse: inverse)
        case .personAvatarSet(let set):
            // T5: the avatar as it was (none: an empty one).
            let old = people[set.personID].map { $0.avatar ?? PersonAvatar() }
            return EventEffect(owned: [.person(set.personID)], inverse: old.map { [.personAvatarSet(PersonAvatarSet(personID: set.personID, avatar: $0))] })
        case .walletOpened, .walletRenamed, .walletKindChanged, .walletDeactivated, .walletReactivated,
             .walletClosed, .balanceRecorded, .balanceRemoved, .transferRecorded, .transferEdited, .transferDeleted, .walletDesignationSet,
             .walletValuationSet, .walletConnectionSet, .walletReopened:
            return walletEffect(of: payload)
        case .categoryCreated, .categoryRenamed, .categoryDeactivated, .categoryReactivated, .categoryDeleted,
             .categoryUpdated, .categoriesReordered, .categoryTaxClassSet:
            return categoryEffect(of: payload)
        case .transactionRecorded, .transactionEdited, .transactionDeleted, .transactionRestored,
             .templateCreated, .templatePaused, .templateResumed, .templateActivated, .templatePriceChanged,
             .templateCancelled, .templateReinstated, .templateEdited, .templateProfileSet, .templateSharingAccepted, .occurrenceBillingMarked, .bonusConfirmed,
             .bonusMarked, .bonusAllocated, .bonusRolledIn:
            return transactionEffect(of: payload)
        case .splitRatioSet:
            // T5: the setting as it was, then the ratio that was in force when a recalculation
            // had replaced the setting's (S4).
            let previous = splitRatioSetting ?? splitRatio
                ?? LedgerState.equalRatios(activeMembers).map { SplitRatioSet(mode: .manual, ratios: $0) }
            guard let previous else { return EventEffect(owned: [.splitRatio]) }
            var inverse: [EventPayload] = [.splitRatioSet(previous)]
            if let inForce = splitRatio, inForce.ratios != previous.ratios {
                inverse.append(.splitRatioRecalculated(SplitRatioRecalculated(
                    periodStart: nil, ratios: inForce.ratios, isFallback: lastRatioRecalculation?.isFallback ?? false)))
            }
            return EventEffect(owned: [.splitRatio], inverse: inverse)
        case .splitRatioRecalculated(let recalculated):
            guard recalculated.periodStart == nil else { return EventEffect(owned: [], referenced: [.periods]) }
            let previous = splitRatio?.ratios ?? LedgerState.equalRatios(activeMembers)
            return EventEffect(owned: [.splitRatio], inverse: previous.map { ratios in
                [.splitRatioRecalculated(SplitRatioRecalculated(
                    periodStart: nil, ratios: ratios, isFallback: lastRatioRecalculation?.isFallback ?? false))]
            })
        case .settlementRecorded(let settlement):
            let covered = debts.coveredSources(by: settlement).map { item -> EntityKey in
                switch item {
                case .transaction(let id): .transaction(id)
                case .groupExpense(let id): .groupExpense(id)
                }
            }
            let group = settlement.groupID.map { [EntityKey.group($0)] } ?? []
            return EventEffect(owned: [.settlement(settlement.settlementID)], referenced: covered + group)
        case .groupCreated(let created):
            return EventEffect(owned: [.group(created.groupID)], referenced: created.members.map(EntityKey.person))
        case .groupUpdated(let updated):
            let old = groups[updated.groupID]
            return EventEffect(owned: [.group(updated.groupID)],
                               inverse: old.map { [.groupUpdated(GroupUpdated(groupID: updated.groupID, name: $0.name, description: $0.description, emoji: $0.emoji))] })
        case .groupMemberAdded(let added):
            return EventEffect(owned: [.group(added.groupID)], referenced: [.person(added.personID)],
                               inverse: [.groupMemberRemoved(GroupMemberRemoved(groupID: added.groupID, personID: added.personID))])
        case .groupMemberRemoved(let removed):
            return EventEffect(owned: [.group(removed.groupID)], referenced: [.person(removed.personID)],
                               inverse: [.groupMemberAdded(GroupMemberAdded(groupID: removed.groupID, personID: removed.personID))])
        case .groupArchived(let archived):
            return EventEffect(owned: [.group(archived.groupID)], inverse: [.groupUnarchived(GroupUnarchived(groupID: archived.groupID))])
        case .groupUnarchived(let unarchived):
            return EventEffect(owned: [.group(unarchived.groupID)], inverse: [.groupArchived(GroupArchived(groupID: unarchived.groupID))])
        case .groupDeleted(let deleted):
            // S7, T5: undo restores the group as it was (every balance was zero, S8).
            return EventEffect(owned: [.group(deleted.groupID)], inverse: [.groupRestored(GroupRestored(groupID: deleted.groupID))])
        case .groupRestored(let restored):
            return EventEffect(owned: [.group(restored.groupID)], inverse: [.groupDeleted(GroupDeleted(groupID: restored.groupID))])
        case .groupExpenseRecorded, .groupExpenseEdited, .groupExpenseDeleted, .groupExpenseRestored, .groupExpenseSettledMarked:
            return groupExpenseEffect(of: payload)
        case .paydaySet:
            return EventEffect(owned: [.periods])
        case .budgetAllocated(let allocated):
            return EventEffect(
                owned: [.budget(allocated.categoryID)], referenced: [.category(allocated.categoryID)],
                inverse: [budgetRestoring(allocated.categoryID, at: allocated.fromPeriod)])
        case .budgetRemoved(let removed):
            return EventEffect(
                owned: [.budget(removed.categoryID)], referenced: [.category(removed.categoryID)],
                inverse: [budgetRestoring(removed.categoryID, at: removed.fromPeriod)])
        case .incomeSettingsSet:
            return EventEffect(owned: [.incomeSettings], inverse: incomeSettings.map { [.incomeSettingsSet($0)] })
        case .periodClosed:
            return EventEffect(owned: [], referenced: [.periods])
        case .exchangeRateSet(let set):
            return EventEffect(owned: [.exchangeRate(set.rate.base, set.rate.quote)])
        case .goalCreated, .goalUpdated, .goalAmountSet, .goalDeleted, .goalRestored, .scenarioSaved, .scenarioDeleted,
             .scenarioActivated, .alertSettingsSet, .walletBalanceAlertSet:
            return planning.effect(of: payload, goals: goals) ?? EventEffect(owned: [])
        case .importMappingSaved(let saved):
            // Undo puts back the mapping the name had, or removes the name (section 9).
            let previous = importMappings[saved.name.lowercased()]
            return EventEffect(
                owned: [.importMapping(saved.name.lowercased())], referenced: saved.categories.map { .category($0.categoryID) },
                inverse: [previous.map(EventPayload.importMappingSaved) ?? .importMappingRemoved(ImportMappingRemoved(name: saved.name))])
        case .importMappingRemoved(let removed):
            return EventEffect(
                owned: [.importMapping(removed.name.lowercased())],
                inverse: importMappings[removed.name.lowercased()].map { [.importMappingSaved($0)] })
        case .attachmentAdded(let added):
            // T5, T6: undo takes the file off; redo attaches it again. The item is not
            // referenced: an attachment never blocks undoing the item's own commands.
            return EventEffect(owned: [.attachment(added.item, added.contentHash)],
                               inverse: [.attachmentRemoved(AttachmentRemoved(item: added.item, contentHash: added.contentHash))])
        case .attachmentRemoved(let removed):
            // Undone by attaching the file again with the fields it had, in its author's name.
            let record = readModels.attachments[AttachmentKey(item: removed.item, contentHash: removed.contentHash)]
            return EventEffect(owned: [.attachment(removed.item, removed.contentHash)],
                               inverse: record.map { [.attachmentAdded($0.added(to: removed.item, contentHash: removed.contentHash))] })
        case .viewSaved(let saved):
            // Undo puts back the view as it was, or deletes a new one (Flow US-058).
            return EventEffect(
                owned: [.view(saved.viewID)],
                referenced: saved.filter.walletIDs.map { .wallet($0) } + saved.filter.categoryIDs.map { .category($0) },
                inverse: [views[saved.viewID].map(EventPayload.viewSaved) ?? .viewDeleted(ViewDeleted(viewID: saved.viewID))])
        case .viewRenamed(let renamed):
            return EventEffect(
                owned: [.view(renamed.viewID)],
                inverse: views[renamed.viewID].map { [.viewRenamed(ViewRenamed(viewID: renamed.viewID, name: $0.name))] })
        case .viewDeleted(let deleted):
            return EventEffect(owned: [.view(deleted.viewID)], inverse: views[deleted.viewID].map { [.viewSaved($0)] })
        case .commandUndone, .commandRedone:
            return EventEffect(owned: [], inverse: [])
        case .sampleDataLoaded, .sampleDataCleared:
            // E5-S6: no compensating event; a sample is cleared with `clearSampleData`, and a
            // clear is permanent. They own no key, so they never block an undo.
            return EventEffect(owned: [])
        }
    }

    /// The allocation of a category in force for the period starting at `date` (B2); `nil` when
    /// the category is not budgeted then (never allocated, or removed): the budget read model's.
    func budgetAmount(for category: CategoryID, at date: LocalDate) -> Money? {
        readModels.budgets.allocation(of: category, forPeriodStarting: date)
    }

    /// The event that puts back, from `date` on, the allocation in force there now (T5): a
    /// `BudgetAllocated` of it, or a `BudgetRemoved` when the category was not budgeted, so that
    /// undoing a first allocation leaves the category unbudgeted, not budgeted at zero.
    private func budgetRestoring(_ category: CategoryID, at date: LocalDate) -> EventPayload {
        guard let amount = budgetAmount(for: category, at: date) else {
            return .budgetRemoved(BudgetRemoved(categoryID: category, fromPeriod: date))
        }
        return .budgetAllocated(BudgetAllocated(categoryID: category, amount: amount, fromPeriod: date))
    }

    /// Group expenses (S7, T5): a recording is undone by deleting it, a deletion by restoring it,
    /// an edit by the expense as it was, a settled mark by the mark as it was.
    private func groupExpenseEffect(of payload: EventPayload) -> EventEffect {
        func references(_ expense: GroupExpenseRecorded) -> [EntityKey] {
            [.group(expense.groupID)] + (expense.categoryID.map { [EntityKey.category($0)] } ?? [])
        }
        switch payload {
        case .groupExpenseRecorded(let expense):
            return EventEffect(
                owned: [.groupExpense(expense.expenseID)], referenced: references(expense),
                inverse: [.groupExpenseDeleted(GroupExpenseDeleted(expenseID: expense.expenseID))])
        case .groupExpenseEdited(let edited):
            let old = groupExpenses[edited.expense.expenseID]?.expense
            return EventEffect(
                owned: [.groupExpense(edited.expense.expenseID)],
                referenced: references(edited.expense) + (old.map(references) ?? []),
                inverse: old.map { [.groupExpenseEdited(GroupExpenseEdited(expense: $0))] })
        case .groupExpenseDeleted(let deleted):
            let group = groupExpenses[deleted.expenseID].map { [EntityKey.group($0.expense.groupID)] } ?? []
            return EventEffect(owned: [.groupExpense(deleted.expenseID)], referenced: group,
                               inverse: [.groupExpenseRestored(GroupExpenseRestored(expenseID: deleted.expenseID))])
        case .groupExpenseRestored(let restored):
            let group = groupExpenses[restored.expenseID].map { [EntityKey.group($0.expense.groupID)] } ?? []
            return EventEffect(owned: [.groupExpense(restored.expenseID)], referenced: group,
                               inverse: [.groupExpenseDeleted(GroupExpenseDeleted(expenseID: restored.expenseID))])
        case .groupExpenseSettledMarked(let marked):
            let was = groupExpenses[marked.expenseID]?.isMarkedSettled ?? false
            return EventEffect(owned: [.groupExpense(marked.expenseID)],
                               inverse: [.groupExpenseSettledMarked(GroupExpenseSettledMarked(expenseID: marked.expenseID, isSettled: was))])
        default:
            return EventEffect(owned: [])
        }
    }

    private func walletEffect(of payload: EventPayload) -> EventEffect {
        switch payload {
        case .walletOpened(let opened):
            return EventEffect(
                owned: [.wallet(opened.walletID), .walletName(opened.name.lowercased())],
                inverse: [.walletDeactivated(WalletDeactivated(walletID: opened.walletID))])
        case .walletRenamed(let renamed):
            let old = wallets[renamed.walletID]?.name ?? renamed.name
            return EventEffect(
                owned: [.wallet(renamed.walletID), .walletName(old.lowercased()), .walletName(renamed.name.lowercased())],
                inverse: [.walletRenamed(WalletRenamed(walletID: renamed.walletID, name: old))])
        case .walletKindChanged(let changed):
            let old = wallets[changed.walletID]?.kind ?? changed.kind
            return EventEffect(owned: [.wallet(changed.walletID)],
                               inverse: [.walletKindChanged(WalletKindChanged(walletID: changed.walletID, kind: old))])
        case .walletValuationSet(let set):
            // W5: undo sets the valuation the wallet had (none set: the kind's default again).
            let old = wallets[set.walletID]?.valuationSet
            return EventEffect(owned: [.wallet(set.walletID)],
                               inverse: [.walletValuationSet(WalletValuationSet(walletID: set.walletID, valuation: old))])
        case .walletConnectionSet(let set):
            // T5: undo sets the connection the wallet had (none: every field absent).
            let old = wallets[set.walletID]?.connection ?? .none(of: set.walletID)
            return EventEffect(owned: [.wallet(set.walletID)], inverse: [.walletConnectionSet(old)])
        case .walletDeactivated(let deactivated):
            return EventEffect(owned: [.wallet(deactivated.walletID)],
                               inverse: [.walletReactivated(WalletReactivated(walletID: deactivated.walletID))])
        case .walletReactivated(let reactivated):
            return EventEffect(owned: [.wallet(reactivated.walletID)],
                               inverse: [.walletDeactivated(WalletDeactivated(walletID: reactivated.walletID))])
        case .walletClosed(let closed):
            // Undo opens it again (W4, US-011: a closed wallet is recoverable).
            return EventEffect(owned: [.wallet(closed.walletID)], inverse: [.walletReopened(WalletReopened(walletID: closed.walletID))])
        case .walletReopened(let reopened):
            // Undo closes it again on the day it was closed (W4).
            let closedOn = wallets[reopened.walletID]?.closedOn
            return EventEffect(owned: [.wallet(reopened.walletID)],
                               inverse: closedOn.map { [.walletClosed(WalletClosed(walletID: reopened.walletID, closedOn: $0))] })
        case .balanceRecorded(let point):
            // W5: undo removes the point and puts back the one it replaced on that date, if any.
            let replaced = readModels.wallets.balancePoint(of: point.walletID, on: point.date).map { [EventPayload.balanceRecorded(BalanceRecorded(walletID: point.walletID, date: point.date, balance: $0))] } ?? []
            return EventEffect(owned: [.balancePoints(point.walletID)], referenced: [.wallet(point.walletID)],
                               inverse: [.balanceRemoved(BalanceRemoved(walletID: point.walletID, date: point.date))] + replaced)
        case .balanceRemoved(let removed):
            let restored = readModels.wallets.balancePoint(of: removed.walletID, on: removed.date).map { [EventPayload.balanceRecorded(BalanceRecorded(walletID: removed.walletID, date: removed.date, balance: $0))] }
            return EventEffect(owned: [.balancePoints(removed.walletID)], referenced: [.wallet(removed.walletID)], inverse: restored)
        case .walletDesignationSet(let set):
            // Undo puts back the timeline's entry for that month, or removes it when there was none (N5).
            let previous = readModels.wallets.designations(of: set.walletID).first { $0.fromMonth == set.fromMonth }?.designation
            return EventEffect(
                owned: [.walletDesignation(set.walletID)], referenced: [.wallet(set.walletID)],
                inverse: [.walletDesignationSet(WalletDesignationSet(walletID: set.walletID, designation: previous, fromMonth: set.fromMonth))])
        case .transferRecorded(let transfer):
            return EventEffect(
                owned: [.transfer(transfer.transferID)],
                referenced: [.wallet(transfer.fromWalletID), .wallet(transfer.toWalletID)],
                inverse: [.transferDeleted(TransferDeleted(transferID: transfer.transferID))])
        case .transferEdited(let edited):
            let old = transfers[edited.transfer.transferID]?.transfer
            let oldWallets = old.map { [EntityKey.wallet($0.fromWalletID), .wallet($0.toWalletID)] } ?? []
            return EventEffect(
                owned: [.transfer(edited.transfer.transferID)],
                referenced: [.wallet(edited.transfer.fromWalletID), .wallet(edited.transfer.toWalletID)] + oldWallets,
                inverse: old.map { [.transferEdited(TransferEdited(transfer: $0))] })
        case .transferDeleted(let deleted):
            return EventEffect(owned: [.transfer(deleted.transferID)])
        default:
            return EventEffect(owned: [])
        }
    }

    private func categoryEffect(of payload: EventPayload) -> EventEffect {
        switch payload {
        case .categoryCreated(let created):
            return EventEffect(
                owned: [.category(created.categoryID), .categoryName(created.name.lowercased())],
                inverse: [.categoryDeactivated(CategoryDeactivated(categoryID: created.categoryID))])
        case .categoryRenamed(let renamed):
            let old = categories[renamed.categoryID]?.name ?? renamed.name
            return EventEffect(
                owned: [.category(renamed.categoryID), .categoryName(old.lowercased()), .categoryName(renamed.name.lowercased())],
                inverse: [.categoryRenamed(CategoryRenamed(categoryID: renamed.categoryID, name: old))])
        case .categoryDeactivated(let deactivated):
            return EventEffect(owned: [.category(deactivated.categoryID)],
                               inverse: [.categoryReactivated(CategoryReactivated(categoryID: deactivated.categoryID))])
        case .categoryReactivated(let reactivated):
            return EventEffect(owned: [.category(reactivated.categoryID)],
                               inverse: [.categoryDeactivated(CategoryDeactivated(categoryID: reactivated.categoryID))])
        case .categoryUpdated(let updated):
            let old = categories[updated.categoryID]
            return EventEffect(
                owned: [.category(updated.categoryID)],
                inverse: old.map { [.categoryUpdated(CategoryUpdated(categoryID: updated.categoryID, budgetType: $0.budgetType, icon: $0.icon, color: $0.color))] })
        case .categoryTaxClassSet(let set):
            // T5: the tax class as it was (none until set).
            return EventEffect(
                owned: [.categoryTaxClass(set.categoryID)], referenced: [.category(set.categoryID)],
                inverse: [.categoryTaxClassSet(CategoryTaxClassSet(categoryID: set.categoryID, taxClass: categories[set.categoryID]?.taxClass))])
        case .categoriesReordered:
            return EventEffect(owned: [.categoryOrder], inverse: [.categoriesReordered(CategoriesReordered(categoryIDs: categoryOrder))])
        case .categoryDeleted(let deleted):
            let moved = readModels.transactionIDs(in: deleted.categoryID).map(EntityKey.transaction)
            return EventEffect(
                owned: [.category(deleted.categoryID)] + moved,
                referenced: deleted.reassignedTo.map { [EntityKey.category($0)] } ?? [])
        default:
            return EventEffect(owned: [])
        }
    }

    private func transactionEffect(of payload: EventPayload) -> EventEffect {
        switch payload {
        case .transactionRecorded(let recorded):
            return EventEffect(
                owned: [.transaction(recorded.transactionID)], referenced: references(of: recorded.details),
                inverse: [.transactionDeleted(TransactionDeleted(transactionID: recorded.transactionID))])
        case .templateActivated(let activated):
            return EventEffect(
                owned: [.transaction(activated.transactionID)],
                referenced: references(of: activated.details) + [.template(activated.templateID)],
                inverse: [.transactionDeleted(TransactionDeleted(transactionID: activated.transactionID))])
        case .transactionEdited(let edited):
            let old = transactions[edited.transactionID]
            return EventEffect(
                owned: [.transaction(edited.transactionID)],
                referenced: references(of: edited.details) + (old.map { references(of: $0.details) } ?? []),
                inverse: old.map {
                    [.transactionEdited(TransactionEdited(
                        transactionID: edited.transactionID, details: $0.details, splitWith: $0.splitWith, originalAmount: $0.originalAmount,
                        payee: $0.payee, subtitle: $0.subtitle))]
                })
        case .transactionDeleted(let deleted):
            return EventEffect(owned: [.transaction(deleted.transactionID)],
                               inverse: [.transactionRestored(TransactionRestored(transactionID: deleted.transactionID))])
        case .transactionRestored(let restored):
            let wallet = transactions[restored.transactionID].map { [EntityKey.wallet($0.details.walletID)] } ?? []
            return EventEffect(owned: [.transaction(restored.transactionID)], referenced: wallet,
                               inverse: [.transactionDeleted(TransactionDeleted(transactionID: restored.transactionID))])
        case .templateCreated(let created):
            return EventEffect(owned: [.template(created.templateID)], referenced: references(of: created.details),
                               inverse: [.templatePaused(TemplatePaused(templateID: created.templateID))])
        case .templatePaused(let paused):
            // A dated pause is undone by resuming on its first day (an empty span); an undated one as T4 had it.
            return EventEffect(owned: [.template(paused.templateID)],
                               inverse: [.templateResumed(TemplateResumed(templateID: paused.templateID, on: paused.from))])
        case .templateResumed(let resumed):
            // Pauses again what the resume ended: the lifted span, or its part from the resume date on.
            let last = templates[resumed.templateID]?.schedule.pauses.last
            let inverse = TemplatePaused(templateID: resumed.templateID, from: resumed.on ?? last?.from, resumesOn: last?.until)
            return EventEffect(owned: [.template(resumed.templateID)], inverse: [.templatePaused(inverse)])
        case .templatePriceChanged(let changed):
            // Undone by setting, from the same date, the price in effect before the change.
            let previous = templates[changed.templateID].map { $0.schedule.price(on: changed.effectiveFrom) }
            return EventEffect(owned: [.template(changed.templateID)], inverse: previous.map {
                [.templatePriceChanged(TemplatePriceChanged(templateID: changed.templateID, amount: $0, effectiveFrom: changed.effectiveFrom))]
            })
        case .templateCancelled(let cancelled):
            // R1, T5: undo takes the cancel back; the dates from `effectiveOn` on are due again.
            return EventEffect(owned: [.template(cancelled.templateID)],
                               inverse: [.templateReinstated(TemplateReinstated(templateID: cancelled.templateID))])
        case .templateReinstated(let reinstated):
            // Cancels again on the date and with the reason the cancel had.
            let template = templates[reinstated.templateID]
            let inverse = template?.schedule.cancelledOn.map {
                [EventPayload.templateCancelled(TemplateCancelled(templateID: reinstated.templateID, effectiveOn: $0, reason: template?.cancelReason))]
            }
            return EventEffect(owned: [.template(reinstated.templateID)], inverse: inverse)
        case .templateEdited(let edited):
            // Undone by setting, from the same date, the fields in effect before, then the later
            // edits it replaced again, oldest first (their cycles stay in the schedule); a new
            // cycle has no compensating event (the dates it replaced are not an edit's to restore).
            let template = edited.cycle == nil ? templates[edited.templateID] : nil
            let references: [EntityKey] = [.wallet(edited.walletID), .category(edited.categoryID)]
            return EventEffect(owned: [.template(edited.templateID)], referenced: references, inverse: template.map { template in
                let old = template.details(on: edited.effectiveFrom)
                let replaced = template.edits.filter { $0.effectiveFrom > edited.effectiveFrom }.map {
                    EventPayload.templateEdited(TemplateEdited(edited.templateID, from: $0.effectiveFrom, fields: $0.applied(to: old)))
                }
                return [.templateEdited(TemplateEdited(edited.templateID, from: edited.effectiveFrom, fields: old))] + replaced
            })
        case .templateProfileSet(let set):
            let old = templates[set.templateID]?.profile
            return EventEffect(owned: [.template(set.templateID)], inverse: old.map { [.templateProfileSet(TemplateProfileSet(templateID: set.templateID, profile: $0))] })
        case .templateSharingAccepted(let answer):
            return EventEffect(owned: [.template(answer.templateID)], inverse: [
                .templateSharingAccepted(TemplateSharingAccepted(templateID: answer.templateID, person: answer.person, accepted: !answer.accepted)),
            ])
        case .occurrenceBillingMarked(let marked):
            let old = templates[marked.templateID]?.billingStatus(on: marked.date) ?? .paid
            return EventEffect(owned: [.template(marked.templateID)], inverse: [
                .occurrenceBillingMarked(OccurrenceBillingMarked(templateID: marked.templateID, date: marked.date, status: old)),
            ])
        case .bonusConfirmed(let confirmed):
            return EventEffect(owned: [], referenced: [.transaction(confirmed.transactionID)])
        case .bonusMarked(let marked):
            // T5: the mark as it was (no mark reads as regular income).
            let wasBonus = readModels.budgets.bonusPoolEntry(marked.transactionID) != nil
            return EventEffect(
                owned: [.transaction(marked.transactionID)],
                inverse: [.bonusMarked(BonusMarked(transactionID: marked.transactionID, isBonus: wasBonus))])
        case .bonusAllocated(let allocated):
            // Not undoable (no event takes an allocation back); it depends on the bonus mark.
            let target: [EntityKey] = allocated.categoryID.map { [.category($0)] } ?? allocated.goalID.map { [.goal($0)] } ?? []
            return EventEffect(owned: [], referenced: [.transaction(allocated.transactionID)] + target, inverse: nil)
        case .bonusRolledIn(let rolled):
            return EventEffect(owned: [], referenced: [.transaction(rolled.transactionID)])
        default:
            return EventEffect(owned: [])
        }
    }

    private func references(of details: TransactionDetails) -> [EntityKey] {
        [.wallet(details.walletID), .category(details.categoryID), .baseCurrency]
    }
}
