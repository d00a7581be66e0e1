/// The stable number of every event type, and its current schema version.
///
/// This is the tag table of the stored format: a tag is never changed or reused, even after
/// an event type is retired. Numbers are grouped by Docs/Domain.md section (1xx household, 2xx wallets,
/// 3xx categories, 4xx transactions, 5xx sharing, 6xx budgets and planning, 7xx net worth, 8xx import, 9xx undo).
public enum EventTag: UInt32, CaseIterable, Hashable, Sendable {
    /// ``HouseholdCreated``.
    case householdCreated = 100
    /// ``BaseCurrencyChanged``.
    case baseCurrencyChanged = 101
    /// ``MemberAdded``.
    case memberAdded = 102
    /// ``MemberRemoved``.
    case memberRemoved = 103
    /// ``AdminTransferred``.
    case adminTransferred = 104
    /// ``PersonAdded``.
    case personAdded = 105
    /// ``PersonArchived``.
    case personArchived = 106
    /// ``PersonForgotten``.
    case personForgotten = 107
    /// ``PersonUnarchived``.
    case personUnarchived = 108
    /// ``PersonAvatarSet``.
    case personAvatarSet = 109
    /// ``PersonUpdated``.
    case personUpdated = 110
    /// ``MemberInvited``.
    case memberInvited = 653
    /// ``InvitationCancelled``.
    case invitationCancelled = 654
    /// ``InvitationAccepted``.
    case invitationAccepted = 655
    /// ``WalletOpened``.
    case walletOpened = 200
    /// ``WalletRenamed``.
    case walletRenamed = 201
    /// ``WalletKindChanged``.
    case walletKindChanged = 202
    /// ``WalletDeactivated``.
    case walletDeactivated = 203
    /// ``WalletReactivated``.
    case walletReactivated = 204
    /// ``WalletClosed``.
    case walletClosed = 205
    /// ``BalanceRecorded``.
    case balanceRecorded = 206
    /// ``TransferRecorded``.
    case transferRecorded = 207
    /// ``TransferDeleted``.
    case transferDeleted = 208
    /// ``WalletReopened``.
    case walletReopened = 209
    /// ``BalanceRemoved``.
    case balanceRemoved = 230
    /// ``TransferEdited``.
    case transferEdited = 231
    /// ``WalletDesignationSet``.
    case walletDesignationSet = 220
    /// ``WalletValuationSet``.
    case walletValuationSet = 221
    /// ``WalletBalanceAlertSet``.
    case walletBalanceAlertSet = 222
    /// ``WalletConnectionSet``.
    case walletConnectionSet = 223
    /// ``CategoryCreated``.
    case categoryCreated = 300
    /// ``CategoryRenamed``.
    case categoryRenamed = 301
    /// ``CategoryDeactivated``.
    case categoryDeactivated = 302
    /// ``CategoryReactivated``.
    case categoryReactivated = 303
    /// ``CategoryDeleted``.
    case categoryDeleted = 304
    /// ``CategoryUpdated``.
    case categoryUpdated = 310
    /// ``CategoriesReordered``.
    case categoriesReordered = 311
    /// ``TransactionRecorded``.
    case transactionRecorded = 400
    /// ``TransactionEdited``.
    case transactionEdited = 401
    /// ``TransactionDeleted``.
    case transactionDeleted = 402
    /// ``TransactionRestored``.
    case transactionRestored = 403
    /// ``AttachmentAdded``.
    case attachmentAdded = 404
    /// ``AttachmentRemoved``.
    case attachmentRemoved = 405
    /// ``TemplateCreated``.
    case templateCreated = 410
    /// ``TemplatePaused``.
    case templatePaused = 411
    /// ``TemplateResumed``.
    case templateResumed = 412
    /// ``TemplateActivated``.
    case templateActivated = 413
    /// ``TemplatePriceChanged``.
    case templatePriceChanged = 420
    /// ``TemplateCancelled``.
    case templateCancelled = 421
    /// ``TemplateEdited``.
    case templateEdited = 422
    /// ``TemplateProfileSet``.
    case templateProfileSet = 423
    /// ``OccurrenceBillingMarked``.
    case occurrenceBillingMarked = 424
    /// ``TemplateReinstated``.
    case templateReinstated = 425
    /// ``TemplateSharingAccepted``.
    case templateSharingAccepted = 427
    /// ``SampleDataLoaded``.
    case sampleDataLoaded = 426
    /// ``SampleDataCleared``.
    case sampleDataCleared = 428
    /// ``SplitRatioSet``.
    case splitRatioSet = 500
    /// ``SettlementRecorded``.
    case settlementRecorded = 501
    /// ``GroupCreated``.
    case groupCreated = 502
    /// ``GroupExpenseRecorded``.
    case groupExpenseRecorded = 503
    /// ``GroupUpdated``.
    case groupUpdated = 510
    /// ``GroupMemberAdded``.
    case groupMemberAdded = 511
    /// ``GroupMemberRemoved``.
    case groupMemberRemoved = 512
    /// ``GroupArchived``.
    case groupArchived = 513
    /// ``GroupUnarchived``.
    case groupUnarchived = 514
    /// ``GroupDeleted``.
    case groupDeleted = 515
    /// ``GroupRestored``.
    case groupRestored = 516
    /// ``GroupExpenseEdited``.
    case groupExpenseEdited = 520
    /// ``GroupExpenseDeleted``.
    case groupExpenseDeleted = 521
    /// ``GroupExpenseRestored``.
    case groupExpenseRestored = 522
    /// ``GroupExpenseSettledMarked``.
    case groupExpenseSettledMarked = 523
    /// ``PaydaySet``.
    case paydaySet = 600
    /// ``BudgetAllocated``.
    case budgetAllocated = 601
    /// ``IncomeSettingsSet``.
    case incomeSettingsSet = 602
    /// ``BonusConfirmed``.
    case bonusConfirmed = 603
    /// ``PeriodClosed``.
    case periodClosed = 604
    /// ``SplitRatioRecalculated``.
    case splitRatioRecalculated = 605
    /// ``BonusMarked``.
    case bonusMarked = 606
    /// ``BonusAllocated``.
    case bonusAllocated = 607
    /// ``BonusRolledIn``.
    case bonusRolledIn = 608
    /// ``FirstWeekdaySet``.
    case firstWeekdaySet = 609
    /// ``BudgetRemoved``.
    case budgetRemoved = 610
    /// ``CategoryTaxClassSet``.
    case categoryTaxClassSet = 611
    /// ``GoalCreated``.
    case goalCreated = 620
    /// ``GoalUpdated``.
    case goalUpdated = 621
    /// ``GoalAmountSet``.
    case goalAmountSet = 622
    /// ``GoalDeleted``.
    case goalDeleted = 623
    /// ``GoalRestored``.
    case goalRestored = 624
    /// ``ScenarioSaved``.
    case scenarioSaved = 630
    /// ``ScenarioDeleted``.
    case scenarioDeleted = 631
    /// ``ScenarioActivated``.
    case scenarioActivated = 632
    /// ``AlertSettingsSet``.
    case alertSettingsSet = 640
    /// ``ViewSaved``.
    case viewSaved = 650
    /// ``ViewRenamed``.
    case viewRenamed = 651
    /// ``ViewDeleted``.
    case viewDeleted = 652
    /// ``ExchangeRateSet``.
    case exchangeRateSet = 700
    /// ``ImportMappingSaved``.
    case importMappingSaved = 800
    /// ``ImportMappingRemoved``.
    case importMappingRemoved = 801
    /// ``CommandUndone``.
    case commandUndone = 900
    /// ``CommandRedone``.
    case commandRedone = 901

    /// The schema version new events of this type are written with; decoding accepts every
    /// version from 1 up to it (old versions decode forever).
    public var schemaVersion: UInt16 {
        switch self {
        case .transactionRecorded: 6
        case .transactionEdited: 5
        case .groupExpenseRecorded: 4
        case .templateCreated, .paydaySet: 3
        case .alertSettingsSet: 3
        case .settlementRecorded, .templateCancelled, .scenarioSaved, .groupUpdated, .viewSaved, .viewRenamed: 2
        case .householdCreated, .memberAdded, .personAdded, .transferRecorded,
             .templateActivated, .templatePaused, .templateResumed: 2
        default: 1
        }
    }

    /// The event type's name, e.g. `TransactionRecorded`.
    public var eventName: String {
        switch self {
        case .householdCreated: "HouseholdCreated"
        case .baseCurrencyChanged: "BaseCurrencyChanged"
        case .memberAdded: "MemberAdded"
        case .memberRemoved: "MemberRemoved"
        case .adminTransferred: "AdminTransferred"
        case .personAdded: "PersonAdded"
        case .personArchived: "PersonArchived"
        case .personForgotten: "PersonForgotten"
        case .personUnarchived: "PersonUnarchived"
        case .personAvatarSet: "PersonAvatarSet"
        case .personUpdated: "PersonUpdated"
        case .memberInvited: "MemberInvited"
        case .invitationCancelled: "InvitationCancelled"
        case .invitationAccepted: "InvitationAccepted"
        case .walletOpened: "WalletOpened"
        case .walletRenamed: "WalletRenamed"
        case .walletKindChanged: "WalletKindChanged"
        case .walletDeactivated: "WalletDeactivated"
        case .walletReactivated: "WalletReactivated"
        case .walletClosed: "WalletClosed"
        case .balanceRecorded: "BalanceRecorded"
        case .transferRecorded: "TransferRecorded"
        case .transferDeleted: "TransferDeleted"
        case .walletReopened: "WalletReopened"
        case .balanceRemoved: "BalanceRemoved"
        case .transferEdited: "TransferEdited"
        case .walletDesignationSet: "WalletDesignationSet"
        case .walletValuationSet: "WalletValuationSet"
        case .walletBalanceAlertSet: "WalletBalanceAlertSet"
        case .walletConnectionSet: "WalletConnectionSet"
        case .categoryCreated: "CategoryCreated"
        case .categoryRenamed: "CategoryRenamed"
        case .categoryDeactivated: "CategoryDeactivated"
        case .categoryReactivated: "CategoryReactivated"
        case .categoryDeleted: "CategoryDeleted"
        case .categoryUpdated: "CategoryUpdated"
        case .categoriesReordered: "CategoriesReordered"
        case .transactionRecorded: "TransactionRecorded"
        case .transactionEdited: "TransactionEdited"
        case .transactionDeleted: "TransactionDeleted"
        case .transactionRestored: "TransactionRestored"
        case .attachmentAdded: "AttachmentAdded"
        case .attachmentRemoved: "AttachmentRemoved"
        case .templateCreated: "TemplateCreated"
        case .templatePaused: "TemplatePaused"
        case .templateResumed: "TemplateResumed"
        case .templateActivated: "TemplateActivated"
        case .templatePriceChanged: "TemplatePriceChanged"
        case .templateCancelled: "TemplateCancelled"
        case .templateEdited: "TemplateEdited"
        case .templateProfileSet: "TemplateProfileSet"
        case .occurrenceBillingMarked: "OccurrenceBillingMarked"
        case .templateReinstated: "TemplateReinstated"
        case .templateSharingAccepted: "TemplateSharingAccepted"
        case .sampleDataLoaded: "SampleDataLoaded"
        case .sampleDataCleared: "SampleDataCleared"
        case .splitRatioSet: "SplitRatioSet"
        case .settlementRecorded: "SettlementRecorded"
        case .groupCreated: "GroupCreated"
        case .groupExpenseRecorded: "GroupExpenseRecorded"
        case .groupUpdated: "GroupUpdated"
        case .groupMemberAdded: "GroupMemberAdded"
        case .groupMemberRemoved: "GroupMemberRemoved"
        case .groupArchived: "GroupArchived"
        case .groupUnarchived: "GroupUnarchived"
        case .groupDeleted: "GroupDeleted"
        case .groupRestored: "GroupRestored"
        case .groupExpenseEdited: "GroupExpenseEdited"
        case .groupExpenseDeleted: "GroupExpenseDeleted"
        case .groupExpenseRestored: "GroupExpenseRestored"
        case .groupExpenseSettledMarked: "GroupExpenseSettledMarked"
        case .paydaySet: "PaydaySet"
        case .budgetAllocated: "BudgetAllocated"
        case .budgetRemoved: "BudgetRemoved"
        case .categoryTaxClassSet: "CategoryTaxClassSet"
        case .firstWeekdaySet: "FirstWeekdaySet"
        case .incomeSettingsSet: "IncomeSettingsSet"
        case .bonusConfirmed: "BonusConfirmed"
        case .periodClosed: "PeriodClosed"
        case .splitRatioRecalculated: "SplitRatioRecalculated"
        case .bonusMarked: "BonusMarked"
        case .bonusAllocated: "BonusAllocated"
        case .bonusRolledIn: "BonusRolledIn"
        case .goalCreated: "GoalCreated"
        case .goalUpdated: "GoalUpdated"
        case .goalAmountSet: "GoalAmountSet"
        case .goalDeleted: "GoalDeleted"
        case .goalRestored: "GoalRestored"
        case .scenarioSaved: "ScenarioSaved"
        case .scenarioDeleted: "ScenarioDeleted"
        case .scenarioActivated: "ScenarioActivated"
        case .alertSettingsSet: "AlertSettingsSet"
        case .exchangeRateSet: "ExchangeRateSet"
        case .viewSaved: "ViewSaved"
        case .viewRenamed: "ViewRenamed"
        case .viewDeleted: "ViewDeleted"
        case .importMappingSaved: "ImportMappingSaved"
        case .importMappingRemoved: "ImportMappingRemoved"
        case .commandUndone: "CommandUndone"
        case .commandRedone: "CommandRedone"
        }
    }
}
