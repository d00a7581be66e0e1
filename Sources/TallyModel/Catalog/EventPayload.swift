/// What happened: one case per event type of the catalog (Docs/Domain.md, sections 1-7), each carrying
/// its payload struct.
public enum EventPayload: Hashable, Sendable {
    /// A household ledger was created; its creator is the admin (H1).
    case householdCreated(HouseholdCreated)
    /// The base currency changed (only before the first transaction) (H2).
    case baseCurrencyChanged(BaseCurrencyChanged)
    /// A person joined the household as a member (H3).
    case memberAdded(MemberAdded)
    /// A member left or was removed; shared history stays (H4).
    case memberRemoved(MemberRemoved)
    /// The admin role moved to another member (H5).
    case adminTransferred(AdminTransferred)
    /// A contact (someone you split with in groups, not a member) was added (H3).
    case personAdded(PersonAdded)
    /// A member or contact was archived: hidden from pickers, history kept (H3).
    case personArchived(PersonArchived)
    /// A person's personal key was destroyed; their names and notes read as redacted (P3).
    case personForgotten(PersonForgotten)
    /// An archived member or contact was taken back (H3, T5).
    case personUnarchived(PersonUnarchived)
    /// A member's or contact's name and contact fields were changed (H3).
    case personUpdated(PersonUpdated)
    /// The admin invited someone to join as a member (H6, Flow US-005).
    case memberInvited(MemberInvited)
    /// The admin cancelled a pending invitation (H6).
    case invitationCancelled(InvitationCancelled)
    /// The invitee accepted a pending invitation; a `MemberAdded` follows (H6).
    case invitationAccepted(InvitationAccepted)
    /// ``PersonAvatarSet``.
    case personAvatarSet(PersonAvatarSet)
    /// A wallet (account) was opened (W1).
    case walletOpened(WalletOpened)
    /// A wallet was renamed (W4).
    case walletRenamed(WalletRenamed)
    /// A wallet's kind changed (only while it has no transactions) (W4).
    case walletKindChanged(WalletKindChanged)
    /// A wallet was deactivated: excluded from totals, history kept (W4).
    case walletDeactivated(WalletDeactivated)
    /// A deactivated wallet counts again (W4).
    case walletReactivated(WalletReactivated)
    /// A wallet with zero balance and no live transactions was closed for good (W4).
    case walletClosed(WalletClosed)
    /// A balance point: the value (observed wallets) or an assertion (tracked wallets) on a date (W5).
    case balanceRecorded(BalanceRecorded)
    /// Money moved between two wallets; both amounts are recorded (equal when the currencies are) (W6).
    case transferRecorded(TransferRecorded)
    /// A transfer was deleted (soft, like T3); it counts nowhere (W3).
    case transferDeleted(TransferDeleted)
    /// The balance points of a wallet on a date were removed (W5).
    case balanceRemoved(BalanceRemoved)
    /// A transfer was edited; carries every field after the edit (W6).
    case transferEdited(TransferEdited)
    /// A wallet's flow designation was set: inflow, outflow, both or neither, from a month on (N5).
    case walletDesignationSet(WalletDesignationSet)
    /// A wallet's valuation was set: tracked through transactions or observed through balance points (W5).
    case walletValuationSet(WalletValuationSet)
    /// A closed wallet was opened again (W4).
    case walletReopened(WalletReopened)
    /// A category was created (presets too, with the household) (C1).
    case categoryCreated(CategoryCreated)
    /// A category was renamed (C2).
    case categoryRenamed(CategoryRenamed)
    /// A category was deactivated: hidden for new entries, history kept (C3).
    case categoryDeactivated(CategoryDeactivated)
    /// A deactivated category can be used again (C3).
    case categoryReactivated(CategoryReactivated)
    /// A category was deleted; its transactions moved to the reassignment target if one is given (C3).
    case categoryDeleted(CategoryDeleted)
    /// A category's budget bucket, icon and color were changed (C1).
    case categoryUpdated(CategoryUpdated)
    /// The categories were put in a new display order (C1).
    case categoriesReordered(CategoriesReordered)
    /// An income or expense was recorded (T1).
    case transactionRecorded(TransactionRecorded)
    /// A transaction was edited; carries the full new field values (T2).
    case transactionEdited(TransactionEdited)
    /// A transaction was soft-deleted; it counts nowhere (T3).
    case transactionDeleted(TransactionDeleted)
    /// A soft-deleted transaction was brought back (T3).
    case transactionRestored(TransactionRestored)
    /// ``AttachmentAdded``.
    case attachmentAdded(AttachmentAdded)
    /// ``AttachmentRemoved``.
    case attachmentRemoved(AttachmentRemoved)
    /// A recurring template was created; it is not a transaction (T4).
    case templateCreated(TemplateCreated)
    /// A template stopped producing occurrences (T4).
    case templatePaused(TemplatePaused)
    /// A paused template produces occurrences again (T4).
    case templateResumed(TemplateResumed)
    /// An occurrence of a template was recorded as a real transaction linked to it (T4).
    case templateActivated(TemplateActivated)
    /// A recurring item's price changed from a date on (R1).
    case templatePriceChanged(TemplatePriceChanged)
    /// A recurring item was cancelled (R1).
    case templateCancelled(TemplateCancelled)
    /// ``TemplateEdited``.
    case templateEdited(TemplateEdited)
    /// ``TemplateProfileSet``.
    case templateProfileSet(TemplateProfileSet)
    /// ``OccurrenceBillingMarked``.
    case occurrenceBillingMarked(OccurrenceBillingMarked)
    /// A cancelled recurring item was taken back (R1, T5).
    case templateReinstated(TemplateReinstated)
    /// ``TemplateSharingAccepted``.
    case templateSharingAccepted(TemplateSharingAccepted)
    /// ``SampleDataLoaded``.
    case sampleDataLoaded(SampleDataLoaded)
    /// ``SampleDataCleared``.
    case sampleDataCleared(SampleDataCleared)
    /// The household split ratio was set (S1).
    case splitRatioSet(SplitRatioSet)
    /// A payment settling debts between two people; permanent (S6).
    case settlementRecorded(SettlementRecorded)
    /// A group of people sharing expenses was created (S7).
    case groupCreated(GroupCreated)
    /// An expense paid by one group member for the group (S7).
    case groupExpenseRecorded(GroupExpenseRecorded)
    /// A group's name and description were changed (S7).
    case groupUpdated(GroupUpdated)
    /// A person joined a group (S7).
    case groupMemberAdded(GroupMemberAdded)
    /// A person with a zero balance left a group (S7).
    case groupMemberRemoved(GroupMemberRemoved)
    /// A group was archived: it takes no new expenses (S7).
    case groupArchived(GroupArchived)
    /// An archived group takes expenses again (S7).
    case groupUnarchived(GroupUnarchived)
    /// A settled group was deleted (S7).
    case groupDeleted(GroupDeleted)
    /// A deleted group was restored (S7, T5).
    case groupRestored(GroupRestored)
    /// A group expense was edited; carries the whole expense after the edit (S7).
    case groupExpenseEdited(GroupExpenseEdited)
    /// A group expense was deleted: it counts in no balance (S7).
    case groupExpenseDeleted(GroupExpenseDeleted)
    /// A deleted group expense counts again, the undo of a deletion (S7, T5).
    case groupExpenseRestored(GroupExpenseRestored)
    /// A group expense was marked settled or unmarked; balances do not change (S7).
    case groupExpenseSettledMarked(GroupExpenseSettledMarked)
    /// The payday that starts each budget period was set (B1).
    case paydaySet(PaydaySet)
    /// A category's budget per period, carried over until changed (B2).
    case budgetAllocated(BudgetAllocated)
    /// A category's allocation was removed from a period on: it is not budgeted (B2).
    case budgetRemoved(BudgetRemoved)
    /// A category's tax class was set or removed (tag 611).
    case categoryTaxClassSet(CategoryTaxClassSet)
    /// How income is determined for budgets (B7).
    case incomeSettingsSet(IncomeSettingsSet)
    /// An income flagged as a bonus was confirmed to count as income (B7).
    case bonusConfirmed(BonusConfirmed)
    /// A budget period closed; its report is frozen as a snapshot (B6).
    case periodClosed(PeriodClosed)
    /// An income-based split ratio was computed again, at a period start or on request (S4).
    case splitRatioRecalculated(SplitRatioRecalculated)
    /// An income was marked as a bonus (the bonus pool), or the mark taken off (US-066).
    case bonusMarked(BonusMarked)
    /// Part of a bonus was allocated to a category or a goal (US-066).
    case bonusAllocated(BonusAllocated)
    /// What was left of a bonus after 7 days became regular income (US-066).
    case bonusRolledIn(BonusRolledIn)
    /// A savings goal was created (R2).
    case goalCreated(GoalCreated)
    /// A savings goal was edited (R2).
    case goalUpdated(GoalUpdated)
    /// The amount saved toward a goal tracked by hand was set for a date (R2).
    case goalAmountSet(GoalAmountSet)
    /// A savings goal was deleted (R2).
    case goalDeleted(GoalDeleted)
    /// A deleted savings goal was restored (R2, T5).
    case goalRestored(GoalRestored)
    /// A planning scenario was saved (R3).
    case scenarioSaved(ScenarioSaved)
    /// A planning scenario was deleted (R3).
    case scenarioDeleted(ScenarioDeleted)
    /// The active scenario changed (R3).
    case scenarioActivated(ScenarioActivated)
    /// The household's alert settings changed (R6).
    case alertSettingsSet(AlertSettingsSet)
    /// A wallet's balance alert was set or removed (R6).
    case walletBalanceAlertSet(WalletBalanceAlertSet)
    /// A wallet's bank connection was set or removed (Tim Step 2.2).
    case walletConnectionSet(WalletConnectionSet)
    /// The household's first day of the week changed (B5, Swiff 2.4.1).
    case firstWeekdaySet(FirstWeekdaySet)
    /// A saved filter or report template was saved, new or replacing (Flow US-058).
    case viewSaved(ViewSaved)
    /// A saved view was renamed (Flow US-058).
    case viewRenamed(ViewRenamed)
    /// A saved view was deleted (Flow US-058).
    case viewDeleted(ViewDeleted)
    /// An exchange rate valid from a date on (N3).
    case exchangeRateSet(ExchangeRateSet)
    /// A CSV import mapping was saved under a name, replacing one of that name (section 9).
    case importMappingSaved(ImportMappingSaved)
    /// A saved CSV import mapping was removed (section 9).
    case importMappingRemoved(ImportMappingRemoved)
    /// An earlier command was undone; its compensating events follow in the same batch (T5).
    case commandUndone(CommandUndone)
    /// An undone command was redone; its events follow again in the same batch (T5).
    case commandRedone(CommandRedone)

    /// The group a group change (`GroupUpdated` ... `GroupDeleted`) is about; `nil` for every
    /// other event.
    public var changedGroupID: GroupID? {
        switch self {
        case .groupUpdated(let event): event.groupID
        case .groupMemberAdded(let event): event.groupID
        case .groupMemberRemoved(let event): event.groupID
        case .groupArchived(let event): event.groupID
        case .groupUnarchived(let event): event.groupID
        case .groupDeleted(let event): event.groupID
        case .groupRestored(let event): event.groupID
        default: nil
        }
    }

    /// The transaction a transaction change (recorded, activated from a template, edited,
    /// deleted, restored: T1-T3) is about; `nil` for every other event.
    public var changedTransactionID: TransactionID? {
        switch self {
        case .transactionRecorded(let event): event.transactionID
        case .templateActivated(let event): event.transactionID
        case .transactionEdited(let event): event.transactionID
        case .transactionDeleted(let event): event.transactionID
        case .transactionRestored(let event): event.transactionID
        default: nil
        }
    }

    /// The event type's stable tag.
    public var tag: EventTag {
        switch self {
        case .householdCreated: .householdCreated
        case .baseCurrencyChanged: .baseCurrencyChanged
        case .memberAdded: .memberAdded
        case .memberRemoved: .memberRemoved
        case .adminTransferred: .adminTransferred
        case .personAdded: .personAdded
        case .personArchived: .personArchived
        case .personForgotten: .personForgotten
        case .personUnarchived: .personUnarchived
        case .personUpdated: .personUpdated
        case .memberInvited: .memberInvited
        case .invitationCancelled: .invitationCancelled
        case .invitationAccepted: .invitationAccepted
        case .personAvatarSet: .personAvatarSet
        case .walletOpened: .walletOpened
        case .walletRenamed: .walletRenamed
        case .walletKindChanged: .walletKindChanged
        case .walletDeactivated: .walletDeactivated
        case .walletReactivated: .walletReactivated
        case .walletClosed: .walletClosed
        case .balanceRecorded: .balanceRecorded
        case .transferRecorded: .transferRecorded
        case .transferDeleted: .transferDeleted
        case .balanceRemoved: .balanceRemoved
        case .transferEdited: .transferEdited
        case .walletDesignationSet: .walletDesignationSet
        case .walletValuationSet: .walletValuationSet
        case .walletReopened: .walletReopened
        case .categoryCreated: .categoryCreated
        case .categoryRenamed: .categoryRenamed
        case .categoryDeactivated: .categoryDeactivated
        case .categoryReactivated: .categoryReactivated
        case .categoryDeleted: .categoryDeleted
        case .categoryUpdated: .categoryUpdated
        case .categoriesReordered: .categoriesReordered
        case .transactionRecorded: .transactionRecorded
        case .transactionEdited: .transactionEdited
        case .transactionDeleted: .transactionDeleted
        case .transactionRestored: .transactionRestored
        case .attachmentAdded: .attachmentAdded
        case .attachmentRemoved: .attachmentRemoved
        case .templateCreated: .templateCreated
        case .templatePaused: .templatePaused
        case .templateResumed: .templateResumed
        case .templateActivated: .templateActivated
        case .templatePriceChanged: .templatePriceChanged
        case .templateCancelled: .templateCancelled
        case .templateEdited: .templateEdited
        case .templateProfileSet: .templateProfileSet
        case .occurrenceBillingMarked: .occurrenceBillingMarked
        case .templateReinstated: .templateReinstated
        case .templateSharingAccepted: .templateSharingAccepted
        case .sampleDataLoaded: .sampleDataLoaded
        case .sampleDataCleared: .sampleDataCleared
        case .splitRatioSet: .splitRatioSet
        case .settlementRecorded: .settlementRecorded
        case .groupCreated: .groupCreated
        case .groupExpenseRecorded: .groupExpenseRecorded
        case .groupUpdated: .groupUpdated
        case .groupMemberAdded: .groupMemberAdded
        case .groupMemberRemoved: .groupMemberRemoved
        case .groupArchived: .groupArchived
        case .groupUnarchived: .groupUnarchived
        case .groupDeleted: .groupDeleted
        case .groupRestored: .groupRestored
        case .groupExpenseEdited: .groupExpenseEdited
        case .groupExpenseDeleted: .groupExpenseDeleted
        case .groupExpenseRestored: .groupExpenseRestored
        case .groupExpenseSettledMarked: .groupExpenseSettledMarked
        case .paydaySet: .paydaySet
        case .budgetAllocated: .budgetAllocated
        case .budgetRemoved: .budgetRemoved
        case .categoryTaxClassSet: .categoryTaxClassSet
        case .incomeSettingsSet: .incomeSettingsSet
        case .bonusConfirmed: .bonusConfirmed
        case .periodClosed: .periodClosed
        case .splitRatioRecalculated: .splitRatioRecalculated
        case .bonusMarked: .bonusMarked
        case .bonusAllocated: .bonusAllocated
        case .bonusRolledIn: .bonusRolledIn
        case .goalCreated: .goalCreated
        case .goalUpdated: .goalUpdated
        case .goalAmountSet: .goalAmountSet
        case .goalDeleted: .goalDeleted
        case .goalRestored: .goalRestored
        case .scenarioSaved: .scenarioSaved
        case .scenarioDeleted: .scenarioDeleted
        case .scenarioActivated: .scenarioActivated
        case .alertSettingsSet: .alertSettingsSet
        case .walletBalanceAlertSet: .walletBalanceAlertSet
        case .walletConnectionSet: .walletConnectionSet
        case .firstWeekdaySet: .firstWeekdaySet
        case .viewSaved: .viewSaved
        case .viewRenamed: .viewRenamed
        case .viewDeleted: .viewDeleted
        case .exchangeRateSet: .exchangeRateSet
        case .importMappingSaved: .importMappingSaved
        case .importMappingRemoved: .importMappingRemoved
        case .commandUndone: .commandUndone
        case .commandRedone: .commandRedone
        }
    }
}
