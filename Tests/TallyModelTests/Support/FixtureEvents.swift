import TallyModel

/// The events stored in `Tests/Fixtures/events-v1.bin` (one per event type of the first catalog)
/// and `events-v2.bin` (the same at their current versions, plus ``v2Additions``), with fixed values.
///
/// Built by hand (not from the random generators) so that changing a generator never changes
/// the fixture's meaning. Once recorded, these values must not be edited: the fixture is kept
/// forever, and a later schema version must upcast the stored bytes to exactly these values.
enum FixtureEvents {
    static func id<Kind>(_ number: UInt64) -> Identifier<Kind> {
        Identifier(UUIDValue(high: 0x0000_0000_0000_4000 | number << 16, low: 0x8000_0000_0000_0000 | number))
    }

    static let household: HouseholdID = id(1)
    static let anna: PersonID = id(2)
    static let ben: PersonID = id(3)
    static let carla: PersonID = id(4)
    static let bank: WalletID = id(10)
    static let card: WalletID = id(11)
    static let groceries = CategoryPresets.expense[0].categoryID(in: household)
    static let salary = CategoryPresets.income[0].categoryID(in: household)
    static let tripGroup: GroupID = id(20)

    static func chf(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .chf) }
    static func eur(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .eur) }
    // The helpers below take constants written in this file; an invalid one is a bug in the file.
    static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        guard let date = try? LocalDate(year: year, month: month, day: day) else { preconditionFailure("bad fixture date") }
        return date
    }

    static func ratio(_ basisPoints: Int64) -> Ratio {
        guard let ratio = try? Ratio(basisPoints: basisPoints) else { preconditionFailure("bad fixture ratio") }
        return ratio
    }

    static func eurChf(_ text: String) -> ExchangeRate {
        guard let rate = try? ExchangeRate.parse(base: .eur, quote: .chf, text) else { preconditionFailure("bad fixture rate") }
        return rate
    }

    static let sharedSplit = TransactionSplit(
        ratios: [MemberRatio(person: anna, ratio: ratio(5000)), MemberRatio(person: ben, ratio: ratio(5000))],
        isOverride: false,
        shares: [PersonShare(person: anna, amount: chf(5001)), PersonShare(person: ben, amount: chf(5000))])

    static let groceriesRun = TransactionDetails(
        kind: .expense, amount: chf(10_001), walletID: bank, categoryID: groceries, date: date(2026, 11, 21),
        note: PersonalText("Migros 🛒", owner: anna), tags: ["weekly", "food"], payer: anna, split: sharedSplit)

    static let rent = TransactionDetails(
        kind: .expense, amount: chf(180_000), walletID: bank, categoryID: groceries, date: date(2026, 1, 31),
        note: nil, tags: [], payer: ben, split: nil)

    /// The transaction stored in the fixture with schema version 1 (no tags).
    static let legacyTransaction = TransactionRecorded(
        transactionID: id(31),
        details: TransactionDetails(
            kind: .income, amount: chf(650_000), walletID: bank, categoryID: salary, date: date(2026, 10, 25),
            note: PersonalText("October", owner: anna), tags: [], payer: anna, split: nil))

    static let payloads: [EventPayload] = [
        .householdCreated(HouseholdCreated(householdID: household, name: "Casa Zürich", baseCurrency: .chf, admin: anna, adminName: PersonalText("Anna", owner: anna))),
        .baseCurrencyChanged(BaseCurrencyChanged(baseCurrency: .eur)),
        .memberAdded(MemberAdded(personID: ben, name: PersonalText("Ben", owner: ben), role: .member)),
        .memberRemoved(MemberRemoved(personID: ben, acknowledgedUnsettled: true, unsettledAmount: chf(4250))),
        .adminTransferred(AdminTransferred(from: anna, to: ben)),
        .personAdded(PersonAdded(personID: carla, name: PersonalText("Carla", owner: carla))),
        .personArchived(PersonArchived(personID: carla)),
        .walletOpened(WalletOpened(walletID: bank, name: "UBS Privatkonto", kind: .bank, currency: .chf,
                                   openingBalance: chf(250_000), openedOn: date(2026, 1, 1), owner: nil)),
        .walletRenamed(WalletRenamed(walletID: bank, name: "UBS Joint")),
        .walletKindChanged(WalletKindChanged(walletID: card, kind: .card)),
        .walletDeactivated(WalletDeactivated(walletID: card)),
        .walletReactivated(WalletReactivated(walletID: card)),
        .walletClosed(WalletClosed(walletID: card, closedOn: date(2026, 12, 31))),
        .balanceRecorded(BalanceRecorded(walletID: bank, date: date(2026, 11, 30), balance: chf(-1234))),
        .transferRecorded(TransferRecorded(transferID: id(40), fromWalletID: bank, toWalletID: card, amountSent: chf(10_000),
                                           amountReceived: eur(10_650), date: date(2026, 11, 2), note: PersonalText("FX", owner: anna))),
        .transferDeleted(TransferDeleted(transferID: id(40))),
        .categoryCreated(CategoryPresets.expense[0].creationEvent(in: household)),
        .categoryRenamed(CategoryRenamed(categoryID: groceries, name: "Lebensmittel")),
        .categoryDeactivated(CategoryDeactivated(categoryID: groceries)),
        .categoryReactivated(CategoryReactivated(categoryID: groceries)),
        .categoryDeleted(CategoryDeleted(categoryID: id(50), reassignedTo: CategoryPresets.expense[9].categoryID(in: household))),
        .transactionRecorded(TransactionRecorded(transactionID: id(30), details: groceriesRun)),
        .transactionEdited(TransactionEdited(transactionID: id(30), details: rent)),
        .transactionDeleted(TransactionDeleted(transactionID: id(30))),
        .transactionRestored(TransactionRestored(transactionID: id(30))),
        .templateCreated(TemplateCreated(templateID: id(60), frequency: .monthly, details: rent)),
        .templatePaused(TemplatePaused(templateID: id(60))),
        .templateResumed(TemplateResumed(templateID: id(60))),
        .templateActivated(TemplateActivated(templateID: id(60), transactionID: id(61), details: rent)),
        .splitRatioSet(SplitRatioSet(mode: .manual, ratios: [MemberRatio(person: anna, ratio: ratio(6000)),
                                                               MemberRatio(person: ben, ratio: ratio(4000))])),
        .settlementRecorded(SettlementRecorded(settlementID: id(70), from: ben, to: anna, amount: chf(5000), date: date(2026, 11, 22),
                                               covers: [.transaction(id(30)), .groupExpense(id(81))], isAdvance: false, groupID: nil)),
        .groupCreated(GroupCreated(groupID: tripGroup, name: "Ski trip", members: [anna, ben, carla])),
        .groupExpenseRecorded(GroupExpenseRecorded(
            expenseID: id(81), groupID: tripGroup, paidBy: carla, amount: chf(10_000), date: date(2026, 2, 14), note: PersonalText("Chalet", owner: anna),
            split: .shares([MemberWeight(person: anna, weight: 2), MemberWeight(person: ben, weight: 1), MemberWeight(person: carla, weight: 1)]),
            owed: [PersonShare(person: anna, amount: chf(5000)), PersonShare(person: ben, amount: chf(2500)),
                   PersonShare(person: carla, amount: chf(2500))])),
        .paydaySet(PaydaySet(day: 25, effectiveFrom: date(2026, 11, 25))),
        .budgetAllocated(BudgetAllocated(categoryID: groceries, amount: chf(80_000), fromPeriod: date(2026, 11, 25))),
        .incomeSettingsSet(IncomeSettingsSet(mode: .auto, monthlyIncome: chf(650_000), incomeCategoryIDs: [salary], graceDays: 3)),
        .bonusConfirmed(BonusConfirmed(transactionID: id(31))),
        .periodClosed(PeriodClosed(periodStart: date(2026, 10, 25), periodEnd: date(2026, 11, 24))),
        .exchangeRateSet(ExchangeRateSet(rate: eurChf("0.9412"), asOf: date(2026, 11, 1))),
        .commandUndone(CommandUndone(undoneCommandID: id(90))),
        .commandRedone(CommandRedone(redoneCommandID: id(90))),
    ]

    /// The current-version events, one per type, in tag order.
    static let events: [Event] = payloads.enumerated().map { index, payload in
        Event(commandID: id(1000 + UInt64(index)), actor: anna,
              recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_255_200_000 + Int64(index) * 1000), payload: payload)
    }

    /// Event types added after `events-v1.bin` was recorded.
    static let tagsAfterV1: Set<EventTag> = [
        .personForgotten,
        .templatePriceChanged, .templateCancelled,  // events-subscriptions.bin
        .personUpdated, .balanceRemoved, .transferEdited, .categoryUpdated, .categoriesReordered, .budgetRemoved,  // events-editing.bin
        .walletDesignationSet,  // events-wallet-designation.bin
        .groupUpdated, .groupMemberAdded, .groupMemberRemoved, .groupArchived, .groupUnarchived, .groupDeleted,  // events-group-editing.bin
        .goalCreated, .goalUpdated, .goalAmountSet, .goalDeleted, .goalRestored, .scenarioSaved, .scenarioDeleted,
        .scenarioActivated, .alertSettingsSet,  // events-planning.bin
        .groupExpenseEdited, .groupExpenseDeleted, .groupExpenseRestored, .groupExpenseSettledMarked,  // events-group-expense-editing.bin
        .importMappingSaved, .importMappingRemoved,  // events-import-mappings.bin
        .walletValuationSet,  // events-wallet-valuation.bin
        .walletReopened,  // events-wallet-reopened.bin
        .templateEdited, .templateProfileSet, .occurrenceBillingMarked,  // events-subscription-editing.bin
        .splitRatioRecalculated,  // events-split-ratio-recalculated.bin
        .bonusMarked, .bonusAllocated, .bonusRolledIn,  // events-bonus-pool.bin
        .personUnarchived, .templateReinstated, .groupRestored,  // events-undo-compensations.bin
        .attachmentAdded, .attachmentRemoved, .personAvatarSet,  // events-attachments.bin
        .viewSaved, .viewRenamed, .viewDeleted,  // events-views.bin
        .templateSharingAccepted,  // events-shared-subscription.bin
        .memberInvited, .invitationCancelled, .invitationAccepted,  // events-invitations.bin
        .firstWeekdaySet,  // events-first-weekday.bin
        .walletBalanceAlertSet,  // events-balance-alerts.bin
        .walletConnectionSet,  // events-wallet-connection.bin
        .categoryTaxClassSet,  // events-tax-class.bin
        .sampleDataLoaded, .sampleDataCleared,  // events-sample-data.bin
    ]

    /// The events `events-v2.bin` holds after ``events``: the types added since v1, and a
    /// redacted note (the form a forgotten person's text takes when it is written again).
    static let v2Additions: [Event] = [
        Event(commandID: id(2000), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_300_000_000),
              payload: .personForgotten(PersonForgotten(personID: carla))),
        Event(commandID: id(2001), actor: carla, recordedAt: Timestamp(millisecondsSinceEpoch: 1_795_300_001_000),
              payload: .transactionRecorded(TransactionRecorded(
                transactionID: id(32),
                details: TransactionDetails(
                    kind: .expense, amount: chf(4_500), walletID: bank, categoryID: groceries, date: date(2026, 11, 23),
                    note: .redacted(owner: carla), tags: ["trip"], payer: carla, split: nil)))),
    ]

    /// Every fixture file after `events-v1.bin`, oldest first, and the events it holds. A change
    /// that adds an event type or a schema version adds one entry here (its events in a file of
    /// their own, `FixtureEvents+<Change>.swift`) and records its file once; files are kept
    /// forever and never re-recorded (`Tests/Fixtures/README.md`).
    static let generations: [(file: String, events: [Event])] = [
        ("events-v2.bin", events + v2Additions),
        ("events-group-expense-category.bin", groupExpenseCategory),
        ("events-subscriptions.bin", subscriptions),
        ("events-editing.bin", editing),
        ("events-wallet-designation.bin", walletDesignation),
        ("events-group-editing.bin", groupEditing),
        ("events-pay-schedule.bin", paySchedule),
        ("events-planning.bin", planning),
        ("events-group-expense-editing.bin", groupExpenseEditing),
        ("events-transaction-split-with.bin", transactionSplitWith),
        ("events-import-mappings.bin", importMappings),
        ("events-wallet-valuation.bin", walletValuation),
        ("events-wallet-reopened.bin", walletReopened),
        ("events-subscription-editing.bin", subscriptionEditing),
        ("events-alert-settings-v2.bin", alertSettingsV2),
        ("events-settlement-v2.bin", settlementV2),
        ("events-split-ratio-recalculated.bin", splitRatioRecalculated),
        ("events-payday-v3.bin", paydayV3),
        ("events-bonus-pool.bin", bonusPool),
        ("events-undo-compensations.bin", undoCompensations),
        ("events-attachments.bin", attachments),
        ("events-views.bin", views),
        ("events-scenario-v2.bin", scenarioV2),
        ("events-alert-settings-v3.bin", alertSettingsV3),
        ("events-foreign-currency.bin", foreignCurrency),
        ("events-shared-subscription.bin", sharedSubscription),
        ("events-views-v2.bin", viewsV2),
        ("events-invitations.bin", invitations),
        ("events-first-weekday.bin", firstWeekday),
        ("events-balance-alerts.bin", balanceAlerts),
        ("events-wallet-connection.bin", walletConnection),
        ("events-tax-class.bin", taxClass),
        ("events-transaction-title.bin", transactionTitle),
        ("events-sample-data.bin", sampleData),
    ]

    /// One event of every type at its current version: the payloads the catalog test checks.
    static var everyEventType: [Event] {
        var latest: [EventTag: Event] = [:]
        for (_, generation) in generations {
            for event in generation { latest[event.payload.tag] = event }
        }
        return latest.values.sorted { $0.payload.tag.rawValue < $1.payload.tag.rawValue }
    }

    /// The hand-made schema-version-1 `TransactionRecorded` record (v1 had no `tags`).
    static let legacyEvent = Event(
        commandID: id(999), actor: anna, recordedAt: Timestamp(millisecondsSinceEpoch: 1_761_400_000_000),
        payload: .transactionRecorded(legacyTransaction))
}
