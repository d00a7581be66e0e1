import TallyModel
import TallyTestSupport

/// Random payloads for every event type, for round-trip properties.
extension EventPayload {
    /// A random payload of the event type `tag`. The switch is exhaustive, so a new tag
    /// without a generator does not compile.
    static func arbitrary(tag: EventTag, using random: inout SeededRandom) -> EventPayload {
        switch tag {
        case .householdCreated:
            .householdCreated(HouseholdCreated(
                householdID: random.make(), name: random.make(), baseCurrency: random.make(),
                admin: random.make(), adminName: random.make()
            ))
        case .baseCurrencyChanged:
            .baseCurrencyChanged(BaseCurrencyChanged(baseCurrency: random.make()))
        case .memberAdded:
            .memberAdded(MemberAdded(personID: random.make(), name: random.make(), role: random.make()))
        case .memberRemoved:
            .memberRemoved(MemberRemoved(
                personID: random.make(), acknowledgedUnsettled: random.make(), unsettledAmount: random.make()
            ))
        case .adminTransferred:
            .adminTransferred(AdminTransferred(from: random.make(), to: random.make()))
        case .personAdded:
            .personAdded(PersonAdded(personID: random.make(), name: random.make()))
        case .personArchived:
            .personArchived(PersonArchived(personID: random.make()))
        case .personForgotten:
            .personForgotten(PersonForgotten(personID: random.make()))
        case .personUnarchived:
            .personUnarchived(PersonUnarchived(personID: random.make()))
        case .personUpdated:
            .personUpdated(PersonUpdated(personID: random.make(), name: random.make(), email: random.make(), phone: random.make()))
        case .walletConnectionSet:
            .walletConnectionSet(WalletConnectionSet(
                walletID: random.make(), institution: random.make(), externalAccountID: random.make(),
                status: random.make()))
        case .walletBalanceAlertSet:
            .walletBalanceAlertSet(WalletBalanceAlertSet(walletID: random.make(), below: random.make(), above: random.make()))
        case .firstWeekdaySet:
            .firstWeekdaySet(FirstWeekdaySet(firstWeekday: random.pick(Weekday.allCases)))
        case .memberInvited:
            .memberInvited(MemberInvited(
                invitationID: random.make(), personID: random.make(), name: random.make(), email: random.make(),
                expiresAt: Timestamp(millisecondsSinceEpoch: random.make())))
        case .invitationCancelled:
            .invitationCancelled(InvitationCancelled(invitationID: random.make()))
        case .invitationAccepted:
            .invitationAccepted(InvitationAccepted(invitationID: random.make()))
        case .personAvatarSet:
            .personAvatarSet(PersonAvatarSet(personID: random.make(), avatar: PersonAvatar(emoji: random.make(), color: random.make(), photo: random.make())))
        case .walletOpened:
            .walletOpened(WalletOpened(
                walletID: random.make(), name: random.make(), kind: random.make(), currency: random.make(),
                openingBalance: random.make(), openedOn: random.make(), owner: random.make()
            ))
        case .walletRenamed:
            .walletRenamed(WalletRenamed(walletID: random.make(), name: random.make()))
        case .walletKindChanged:
            .walletKindChanged(WalletKindChanged(walletID: random.make(), kind: random.make()))
        case .walletDeactivated:
            .walletDeactivated(WalletDeactivated(walletID: random.make()))
        case .walletReactivated:
            .walletReactivated(WalletReactivated(walletID: random.make()))
        case .walletClosed:
            .walletClosed(WalletClosed(walletID: random.make(), closedOn: random.make()))
        case .balanceRecorded:
            .balanceRecorded(BalanceRecorded(
                walletID: random.make(), date: random.make(), balance: random.make()
            ))
        case .transferRecorded:
            .transferRecorded(TransferRecorded(
                transferID: random.make(), fromWalletID: random.make(), toWalletID: random.make(),
                amountSent: random.make(), amountReceived: random.make(), date: random.make(),
                note: random.make()
            ))
        case .transferDeleted:
            .transferDeleted(TransferDeleted(transferID: random.make()))
        case .transferEdited:
            .transferEdited(TransferEdited(transfer: TransferRecorded(
                transferID: random.make(), fromWalletID: random.make(), toWalletID: random.make(),
                amountSent: random.make(), amountReceived: random.make(), date: random.make(),
                note: random.make()
            )))
        case .balanceRemoved:
            .balanceRemoved(BalanceRemoved(walletID: random.make(), date: random.make()))
        case .walletDesignationSet:
            .walletDesignationSet(WalletDesignationSet(walletID: random.make(), designation: random.make(), fromMonth: random.make()))
        case .walletReopened:
            .walletReopened(WalletReopened(walletID: random.make()))
        case .walletValuationSet:
            .walletValuationSet(WalletValuationSet(walletID: random.make(), valuation: random.make()))
        case .categoryCreated:
            .categoryCreated(CategoryCreated(
                categoryID: random.make(), name: random.make(), group: random.make(),
                budgetType: random.make(), shareable: random.make(), icon: random.make(),
                color: random.make(), isPreset: random.make()
            ))
        case .categoryRenamed:
            .categoryRenamed(CategoryRenamed(categoryID: random.make(), name: random.make()))
        case .categoryDeactivated:
            .categoryDeactivated(CategoryDeactivated(categoryID: random.make()))
        case .categoryReactivated:
            .categoryReactivated(CategoryReactivated(categoryID: random.make()))
        case .categoryTaxClassSet:
            .categoryTaxClassSet(CategoryTaxClassSet(categoryID: random.make(), taxClass: random.make()))
        case .categoryUpdated:
            .categoryUpdated(CategoryUpdated(categoryID: random.make(), budgetType: random.make(), icon: random.make(), color: random.make()))
        case .categoriesReordered:
            .categoriesReordered(CategoriesReordered(categoryIDs: random.make()))
        case .categoryDeleted:
            .categoryDeleted(CategoryDeleted(categoryID: random.make(), reassignedTo: random.make()))
        case .transactionRecorded:
            .transactionRecorded(TransactionRecorded(
                transactionID: random.make(), details: random.make(), splitWith: random.make(), originalAmount: random.make(),
                payee: random.make(), subtitle: random.make()))
        case .transactionEdited:
            .transactionEdited(TransactionEdited(
                transactionID: random.make(), details: random.make(), splitWith: random.make(), originalAmount: random.make(),
                payee: random.make(), subtitle: random.make()))
        case .transactionDeleted:
            .transactionDeleted(TransactionDeleted(transactionID: random.make()))
        case .transactionRestored:
            .transactionRestored(TransactionRestored(transactionID: random.make()))
        case .attachmentAdded:
            .attachmentAdded(AttachmentAdded(
                item: random.make(), contentHash: random.make(), name: random.make(), byteCount: random.make(), mediaType: random.make()))
        case .attachmentRemoved:
            .attachmentRemoved(AttachmentRemoved(item: random.make(), contentHash: random.make()))
        case .templateCreated:
            .templateCreated(TemplateCreated(
                templateID: random.make(), frequency: random.make(), details: random.make(), terms: random.make()
            ))
        case .templatePaused:
            .templatePaused(TemplatePaused(templateID: random.make(), from: random.make(), resumesOn: random.make()))
        case .templateResumed:
            .templateResumed(TemplateResumed(templateID: random.make(), on: random.make()))
        case .templatePriceChanged:
            .templatePriceChanged(TemplatePriceChanged(templateID: random.make(), amount: random.make(), effectiveFrom: random.make()))
        case .templateCancelled:
            .templateCancelled(TemplateCancelled(templateID: random.make(), effectiveOn: random.make(), reason: random.make()))
        case .templateReinstated:
            .templateReinstated(TemplateReinstated(templateID: random.make()))
        case .templateEdited:
            .templateEdited(TemplateEdited(
                templateID: random.make(), effectiveFrom: random.make(), note: random.make(), categoryID: random.make(),
                walletID: random.make(), tags: random.make(), cycle: random.make(), nextBilling: random.make()))
        case .templateProfileSet:
            .templateProfileSet(TemplateProfileSet(templateID: random.make(), profile: TemplateProfile(
                description: random.make(), website: random.make(), paymentMethod: random.make(), icon: random.make(), color: random.make())))
        case .sampleDataLoaded:
            .sampleDataLoaded(SampleDataLoaded(commandIDs: random.make()))
        case .sampleDataCleared:
            .sampleDataCleared(SampleDataCleared(loadCommandID: random.make()))
        case .templateSharingAccepted:
            .templateSharingAccepted(TemplateSharingAccepted(templateID: random.make(), person: random.make(), accepted: random.make()))
        case .occurrenceBillingMarked:
            .occurrenceBillingMarked(OccurrenceBillingMarked(templateID: random.make(), date: random.make(), status: random.make()))
        case .templateActivated:
            .templateActivated(TemplateActivated(
                templateID: random.make(), transactionID: random.make(), details: random.make()
            ))
        case .splitRatioSet:
            .splitRatioSet(SplitRatioSet(mode: random.make(), ratios: random.make()))
        case .settlementRecorded:
            .settlementRecorded(SettlementRecorded(
                settlementID: random.make(), from: random.make(), to: random.make(), amount: random.make(),
                date: random.make(), covers: random.make(), isAdvance: random.make(), groupID: random.make(),
                note: random.make(), paymentMethod: random.make()
            ))
        case .groupCreated:
            .groupCreated(GroupCreated(groupID: random.make(), name: random.make(), members: random.make()))
        case .groupExpenseRecorded:
            .groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: random.make(), groupID: random.make(), paidBy: random.make(),
                amount: random.make(), date: random.make(), note: random.make(), split: random.make(),
                owed: random.make(), categoryID: random.make(), title: random.make()
            ))
        case .groupUpdated:
            .groupUpdated(GroupUpdated(groupID: random.make(), name: random.make(), description: random.make()))
        case .groupMemberAdded:
            .groupMemberAdded(GroupMemberAdded(groupID: random.make(), personID: random.make()))
        case .groupMemberRemoved:
            .groupMemberRemoved(GroupMemberRemoved(groupID: random.make(), personID: random.make()))
        case .groupArchived:
            .groupArchived(GroupArchived(groupID: random.make()))
        case .groupUnarchived:
            .groupUnarchived(GroupUnarchived(groupID: random.make()))
        case .groupDeleted:
            .groupDeleted(GroupDeleted(groupID: random.make()))
        case .groupRestored:
            .groupRestored(GroupRestored(groupID: random.make()))
        case .groupExpenseEdited:
            .groupExpenseEdited(GroupExpenseEdited(expense: GroupExpenseRecorded(
                expenseID: random.make(), groupID: random.make(), paidBy: random.make(),
                amount: random.make(), date: random.make(), note: random.make(), split: random.make(),
                owed: random.make(), categoryID: random.make(), title: random.make()
            )))
        case .groupExpenseDeleted:
            .groupExpenseDeleted(GroupExpenseDeleted(expenseID: random.make()))
        case .groupExpenseRestored:
            .groupExpenseRestored(GroupExpenseRestored(expenseID: random.make()))
        case .groupExpenseSettledMarked:
            .groupExpenseSettledMarked(GroupExpenseSettledMarked(expenseID: random.make(), isSettled: random.make()))
        case .paydaySet:
            .paydaySet(PaydaySet(day: random.make(), effectiveFrom: random.make(), intervalDays: random.make(), secondDay: random.make()))
        case .budgetAllocated:
            .budgetAllocated(BudgetAllocated(
                categoryID: random.make(), amount: random.make(), fromPeriod: random.make()
            ))
        case .budgetRemoved:
            .budgetRemoved(BudgetRemoved(categoryID: random.make(), fromPeriod: random.make()))
        case .incomeSettingsSet:
            .incomeSettingsSet(IncomeSettingsSet(
                mode: random.make(), monthlyIncome: random.make(), incomeCategoryIDs: random.make(),
                graceDays: random.make()
            ))
        case .bonusConfirmed:
            .bonusConfirmed(BonusConfirmed(transactionID: random.make()))
        case .periodClosed:
            .periodClosed(PeriodClosed(periodStart: random.make(), periodEnd: random.make()))
        case .bonusMarked:
            .bonusMarked(BonusMarked(transactionID: random.make(), isBonus: random.make()))
        case .bonusAllocated:
            .bonusAllocated(BonusAllocated(transactionID: random.make(), categoryID: random.make(), goalID: random.make(), amount: random.make()))
        case .bonusRolledIn:
            .bonusRolledIn(BonusRolledIn(transactionID: random.make(), amount: random.make()))
        case .splitRatioRecalculated:
            .splitRatioRecalculated(SplitRatioRecalculated(periodStart: random.make(), ratios: random.make(), isFallback: random.make()))
        case .goalCreated:
            .goalCreated(GoalCreated(goalID: random.make(), goal: GoalDefinition.arbitrary(using: &random)))
        case .goalUpdated:
            .goalUpdated(GoalUpdated(goalID: random.make(), goal: GoalDefinition.arbitrary(using: &random)))
        case .goalAmountSet:
            .goalAmountSet(GoalAmountSet(goalID: random.make(), date: random.make(), amount: random.make()))
        case .goalDeleted:
            .goalDeleted(GoalDeleted(goalID: random.make()))
        case .goalRestored:
            .goalRestored(GoalRestored(goalID: random.make()))
        case .scenarioSaved:
            .scenarioSaved(ScenarioSaved(
                scenarioID: random.make(), name: random.make(), monthlyIncomeDelta: random.make(), monthlyExpenseDelta: random.make(),
                lumpSums: (0..<Int.random(in: 0...3, using: &random)).map { _ in ScenarioLumpSum(date: random.make(), amount: random.make()) },
                savingsRateDeltaBasisPoints: random.make()))
        case .scenarioDeleted:
            .scenarioDeleted(ScenarioDeleted(scenarioID: random.make()))
        case .scenarioActivated:
            .scenarioActivated(ScenarioActivated(scenarioID: random.make()))
        case .alertSettingsSet:
            .alertSettingsSet(AlertSettingsSet(
                budgetThresholds: random.make(), upcomingDays: random.make(), staleBalanceDays: random.make(), largeTransaction: random.make(),
                priceIncreaseDays: random.make(), settleUpThreshold: random.make(), spikePercent: random.make()))
        case .viewSaved:
            .viewSaved(ViewSaved(viewID: random.make(), name: random.make(), owner: random.make(), shared: random.make(),
                                 filter: random.make(), report: random.make()))
        case .viewRenamed:
            .viewRenamed(ViewRenamed(viewID: random.make(), name: random.make()))
        case .viewDeleted:
            .viewDeleted(ViewDeleted(viewID: random.make()))
        case .exchangeRateSet:
            .exchangeRateSet(ExchangeRateSet(rate: random.make(), asOf: random.make()))
        case .importMappingSaved:
            .importMappingSaved(ImportMappingSaved(name: random.make(), columns: random.make(), categories: random.make()))
        case .importMappingRemoved:
            .importMappingRemoved(ImportMappingRemoved(name: random.make()))
        case .commandUndone:
            .commandUndone(CommandUndone(undoneCommandID: random.make()))
        case .commandRedone:
            .commandRedone(CommandRedone(redoneCommandID: random.make()))
        }
    }
}

extension GoalDefinition {
    static func arbitrary(using random: inout SeededRandom) -> GoalDefinition {
        GoalDefinition(name: random.make(), target: random.make(), targetDate: random.make(), walletIDs: random.make())
    }
}
