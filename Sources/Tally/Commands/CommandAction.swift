import TallyModel

/// Every user action of Docs/Domain.md sections 1-7. Each case lists the caller-supplied ids of what it
/// creates (G5). `Docs/Commands.md` lists the rules each one checks.
///
/// The one definition of the command schema: a case is a command of the JSON schema under its
/// name, each labelled value a field under its label, with the same default (`@CommandSchema`
/// writes the JSON parser and ``Command/jsonLine`` from these cases). A ``TransactionEntry``,
/// `GoalDefinition`, `ScenarioSaved`, `AlertSettingsSet`, `ExchangeRate` or
/// `TemplateTerms` value spreads its own fields into the command's object.
@CommandSchema
public enum CommandAction: Sendable, Hashable {
    // MARK: Household and people (H1-H5)

    /// Creates the household with the actor as admin, plus the preset categories (H1, C2).
    case createHousehold(householdID: HouseholdID, name: String, baseCurrency: Currency, adminName: String)
    /// Changes the base currency; only before the first transaction (H2).
    case changeBaseCurrency(baseCurrency: Currency)
    /// Sets the household's first day of the week, where every week the engine computes
    /// starts (B5, Swiff 2.4.1; Monday until set). Undoable.
    case setFirstWeekday(firstWeekday: Weekday)
    /// Adds a member (H3).
    case addMember(personID: PersonID, name: String)
    /// Removes a member; unsettled debt needs `acknowledgeUnsettled` (H4); never the admin (H5).
    case removeMember(personID: PersonID, acknowledgeUnsettled: Bool = false)
    /// Makes another member the admin; admin only (H5).
    case transferAdmin(to: PersonID)
    /// Adds a contact, someone to split with in groups (H3).
    case addPerson(personID: PersonID, name: String)
    /// Archives a member or contact (H3).
    case archivePerson(personID: PersonID)
    /// Takes an archived member or contact back: shown in pickers again, able to join groups
    /// (H3). The undo of `archivePerson` records the same event (`PersonUnarchived`).
    case unarchivePerson(personID: PersonID)
    /// Forgets a removed member or a contact: destroys their personal key so their names and
    /// notes read as redacted everywhere, for good (P3). Admin only; not undoable.
    case forgetPerson(personID: PersonID)
    /// Deletes a contact or a removed member the way Swiff's "delete person" does (1.2.5): they
    /// leave every group they are in (a group left with one person is deleted, restorable), with
    /// `deleteOpenTransactions` the shared transactions they still have an open part in are
    /// deleted (T3), and they are forgotten (P3), which also takes them out of shared
    /// subscriptions. Admin only; not undoable (forgetting is for good).
    case deletePerson(personID: PersonID, deleteOpenTransactions: Bool = false)
    /// Renames a member or contact, keeping their contact fields (H3; Docs/Editing.md).
    case renamePerson(personID: PersonID, name: String)
    /// Sets a member's or contact's name, e-mail and phone, all at once: an absent e-mail or
    /// phone is removed (H3, P1; Docs/Editing.md).
    case updatePerson(personID: PersonID, name: String, email: String? = nil, phone: String? = nil)

    /// Sets a member's or contact's avatar, all at once: an emoji, a colour and a photo (the
    /// SHA-256 digest of an image the host keeps); an absent field is removed (H3; Swiff 1.1.2).
    case setPersonAvatar(personID: PersonID, emoji: String? = nil, color: String? = nil, photo: ContentHash? = nil)
    /// Invites someone to join as a member under `personID` (H6, Flow US-005): admin only,
    /// pending for 7 days from the command's `recordedAt`; `email` is where the host sends it.
    case inviteMember(invitationID: InvitationID, personID: PersonID, name: String, email: String? = nil)
    /// Cancels a pending invitation; admin only; undo makes it pending again (H6).
    case cancelInvitation(invitationID: InvitationID)
    /// Accepts a pending invitation: the actor is the invitee (the invitation's person id), who
    /// becomes a member by the rules of `addMember` (H6). Not undoable.
    case acceptInvitation(invitationID: InvitationID)

    // MARK: Wallets (W1-W6)

    /// Opens a wallet (W1, W2); `valuation` (W5) when given, else its kind's default.
    case openWallet(
        walletID: WalletID, name: String, kind: WalletKind, openingBalance: Money, openedOn: LocalDate,
        owner: PersonID? = nil, valuation: WalletValuation? = nil)
    /// Renames a wallet (W2, W4).
    case renameWallet(walletID: WalletID, name: String)
    /// Changes a wallet's kind while it has no transactions (W4).
    case changeWalletKind(walletID: WalletID, kind: WalletKind)
    /// Sets whether a wallet's value is tracked through its transactions or observed through
    /// its balance points (W5).
    case setWalletValuation(walletID: WalletID, valuation: WalletValuation)
    /// Sets a wallet's bank connection (Tim Step 2.2): the institution, the account's id there
    /// and the link's status, every field as it is after the change (one left out is removed,
    /// all left out remove the connection). For a wallet the actor sees (G7). Undoable.
    case setWalletConnection(
        walletID: WalletID, institution: String? = nil, externalAccountID: String? = nil,
        status: WalletConnectionStatus? = nil)
    /// Excludes a wallet from totals (W4).
    case deactivateWallet(walletID: WalletID)
    /// Counts a deactivated wallet again (W4).
    case reactivateWallet(walletID: WalletID)
    /// Closes a wallet with zero balance and no live transactions (W4).
    /// Live goals that count it need `acknowledgeGoals` (Drishti E6-S2: the app confirms first;
    /// `GoalProjection.goalIDs(countingWallet:)` names them).
    case closeWallet(walletID: WalletID, closedOn: LocalDate, acknowledgeGoals: Bool = false)
    /// Opens a closed wallet again (W4): it counts and takes entries again, its history kept.
    case reopenWallet(walletID: WalletID)
    /// Records a balance point (W5).
    case recordBalance(walletID: WalletID, date: LocalDate, balance: Money)
    /// Changes the wallet's balance point on `date`: its amount, and its date when `newDate` is
    /// given (W5; Docs/Editing.md).
    case editBalance(walletID: WalletID, date: LocalDate, newDate: LocalDate? = nil, balance: Money)
    /// Removes the wallet's balance point on `date` (W5).
    case removeBalance(walletID: WalletID, date: LocalDate)
    /// Moves money between two wallets (W6).
    case recordTransfer(
        transferID: TransferID, fromWalletID: WalletID, toWalletID: WalletID, amountSent: Money,
        amountReceived: Money? = nil, date: LocalDate, note: String? = nil)
    /// Replaces all fields of a live transfer, validated like recording it (W6; Docs/Editing.md).
    case editTransfer(
        transferID: TransferID, fromWalletID: WalletID, toWalletID: WalletID, amountSent: Money,
        amountReceived: Money? = nil, date: LocalDate, note: String? = nil)
    /// Deletes a transfer (W3).
    case deleteTransfer(transferID: TransferID)
    /// Sets whether a wallet's monthly net change counts as inflow, outflow, both or neither
    /// (N5), for every month (`fromMonth` nil) or from a month on.
    case setWalletDesignation(walletID: WalletID, designation: WalletDesignation, fromMonth: YearMonth? = nil)

    // MARK: Categories (C1-C3)

    /// Creates a category (C1, C2).
    case createCategory(
        categoryID: CategoryID, name: String, group: CategoryGroup, budgetType: BudgetType = .none,
        shareable: Bool = false, icon: String? = nil, color: String? = nil)
    /// Renames a category (C2).
    case renameCategory(categoryID: CategoryID, name: String)
    /// Hides a category for new entries (C3).
    case deactivateCategory(categoryID: CategoryID)
    /// Makes a deactivated category usable again (C3).
    case reactivateCategory(categoryID: CategoryID)
    /// Sets a category's budget bucket, icon and color, all at once: an absent icon or color is
    /// removed (C1; Docs/Editing.md).
    case updateCategory(categoryID: CategoryID, budgetType: BudgetType, icon: String? = nil, color: String? = nil)
    /// Sets a category's tax class, or removes it when absent (Swiss tax categorization,
    /// Phase 5 business; the tax report sums per class). Undoable.
    case setCategoryTaxClass(categoryID: CategoryID, taxClass: TaxClass? = nil)
    /// Puts the listed categories in this order, in the places they held; the others keep
    /// theirs (C1; Docs/Editing.md).
    case reorderCategories(categoryIDs: [CategoryID])
    /// Deletes a category; with transactions only with a reassignment target (C2, C3).
    case deleteCategory(categoryID: CategoryID, reassignTo: CategoryID? = nil)

    // MARK: Transactions and templates (T1-T5)

    /// Records an income or expense, shared or personal (T1, S2, S3).
    case recordTransaction(transactionID: TransactionID, entry: TransactionEntry)
    /// Replaces all fields of a transaction (T2).
    case editTransaction(transactionID: TransactionID, entry: TransactionEntry)
    /// Soft-deletes a transaction (T3).
    case deleteTransaction(transactionID: TransactionID)
    /// Restores a soft-deleted transaction (T3).
    case restoreTransaction(transactionID: TransactionID)
    /// Creates a recurring template or subscription; `entry.date` is the anchor, `entry.amount`
    /// the price (T4, R1); `terms` add an end date or count, a free trial and a split among
    /// members (equal, exact, percent) instead of `entry`'s household split.
    case createTemplate(templateID: TemplateID, frequency: RecurrenceFrequency, entry: TransactionEntry, terms: TemplateTerms? = nil)
    /// Pauses a template from `from` (every occurrence not posted when `nil`) until
    /// `resumesOn` (until resumed when `nil`) (T4, R1).
    case pauseTemplate(templateID: TemplateID, from: LocalDate? = nil, resumesOn: LocalDate? = nil)
    /// Resumes a paused template on `on`; `nil` lifts the last pause entirely (T4, R1).
    case resumeTemplate(templateID: TemplateID, on: LocalDate? = nil)
    /// Changes a recurring item's price for occurrences on or after `effectiveFrom` (R1).
    case changeTemplatePrice(templateID: TemplateID, amount: Money, effectiveFrom: LocalDate)
    /// Cancels a recurring item: no occurrence on or after `effectiveOn`; history stays (R1).
    /// `reason`, if given, is kept as the actor's personal text (Swiff 1.3.3, P1). Undo takes
    /// the cancel back (`TemplateReinstated`, T5).
    case cancelTemplate(templateID: TemplateID, effectiveOn: LocalDate, reason: String? = nil)
    /// Edits a recurring item for every occurrence on or after `effectiveFrom` ("this and all
    /// future", R1): a field given replaces the one in effect on that date, an absent one stays
    /// (an empty `name` removes it). A `cycle` ends the old cycle before `effectiveFrom` and
    /// starts a new one on `nextBilling` (default `effectiveFrom`). One occurrence alone is its
    /// transaction's edit (T2).
    case editTemplate(
        templateID: TemplateID, effectiveFrom: LocalDate, name: String? = nil, categoryID: CategoryID? = nil,
        walletID: WalletID? = nil, tags: [String]? = nil, cycle: RecurrenceFrequency? = nil, nextBilling: LocalDate? = nil)
    /// Sets a recurring item's description, website, payment method, icon and colour, all at
    /// once: an absent field is removed (R1, P1).
    case setTemplateProfile(
        templateID: TemplateID, description: String? = nil, website: String? = nil, paymentMethod: String? = nil,
        icon: String? = nil, color: String? = nil)
    /// Records whether `person`, one of a shared recurring item's people, accepted their part
    /// (Swiff 1.1.2 SharedSubscription): a member answers for themselves, a contact's answer is
    /// recorded by the item's payer (R1). Undoable (T5).
    case setSharingAcceptance(templateID: TemplateID, person: PersonID, accepted: Bool)
    /// Marks a posted occurrence paid, pending or failed in the item's billing history (R1).
    case markOccurrenceBilling(templateID: TemplateID, date: LocalDate, status: BillingStatus)
    /// Records every billed occurrence of every template dated on or before `through` that
    /// is not posted yet, as transactions linked to their templates (R1). Idempotent per
    /// (template, occurrence date): a second run records nothing.
    case postDueOccurrences(through: LocalDate)
    /// Attaches a file the host keeps under `contentHash` (its SHA-256 digest) to a transaction or
    /// group expense the actor sees (T6; Swiff 2.2.1 receipts): `item` is
    /// `{"transaction": id}` or `{"groupExpense": id}`; `name` is the actor's personal text (P1).
    case addAttachment(item: AttachedItem, contentHash: ContentHash, name: String, byteCount: Int64, mediaType: String)
    /// Takes a file off a transaction or group expense (T6); the bytes are the host's to delete
    /// once ``Ledger/attachedContentHashes()`` no longer lists their digest.
    case removeAttachment(item: AttachedItem, contentHash: ContentHash)
    /// Records the template's occurrence on `date` as a real transaction (T4).
    case activateTemplate(templateID: TemplateID, transactionID: TransactionID, date: LocalDate)
    /// Undoes an earlier command by appending its compensating events (T5).
    case undo(targetCommandID: CommandID)
    /// Redoes an undone command (T5).
    case redo(targetCommandID: CommandID)
    /// Marks the commands `commandIDs`, executed earlier (put them before it in the same batch,
    /// so the sample loads whole or not at all), as sample data (E5-S6): what they created is
    /// flagged in every read (``Ledger/sampleData``) until ``CommandAction/clearSampleData``.
    /// Each must be undoable (T5) so that the clear can take it back; one sample at a time.
    /// Permanent.
    case loadSampleData(commandIDs: [CommandID])
    /// Removes the sample data (E5-S6): undoes every sample command not undone yet, newest
    /// first, in one batch (T5). Refused, changing nothing, when a later command of real data
    /// depends on a sample entity (a real transaction in a sample wallet): the error names it.
    /// Permanent: a clear is not undone, and the commands it undid are not redone.
    case clearSampleData

    // MARK: Sharing (S1-S8)

    /// Sets the household split ratio (S1); `incomeBased` computes it from the previous period's income now and at every
    /// period start, falling back to `ratios` when no income is known (S4).
    case setSplitRatio(mode: SplitRatioMode = .manual, ratios: [MemberRatio])
    /// Records a settlement of debts (S6), with an optional note (personal text of the actor,
    /// P1) and payment method.
    case recordSettlement(
        settlementID: SettlementID, from: PersonID, to: PersonID, amount: Money, date: LocalDate,
        covers: [SettledItem]? = nil, isAdvance: Bool = false, groupID: GroupID? = nil, note: String? = nil, paymentMethod: String? = nil)
    /// Creates a group of members and contacts (S7).
    case createGroup(groupID: GroupID, name: String, members: [PersonID])
    /// Records an expense paid by one group member (S7).
    case recordGroupExpense(
        expenseID: GroupExpenseID, groupID: GroupID, paidBy: PersonID, amount: Money, date: LocalDate,
        note: String? = nil, split: GroupSplit, categoryID: CategoryID? = nil, title: String? = nil)
    /// Replaces every field of a group expense but its group, re-resolving the split (S7, S3;
    /// Docs/Editing.md "Group expenses").
    case editGroupExpense(
        expenseID: GroupExpenseID, paidBy: PersonID, amount: Money, date: LocalDate,
        note: String? = nil, split: GroupSplit, categoryID: CategoryID? = nil, title: String? = nil)
    /// Deletes a group expense: it counts in no balance; undo restores it (S7, T5).
    case deleteGroupExpense(expenseID: GroupExpenseID)
    /// Marks a group expense settled, or takes the mark back; balances do not change (S7).
    case markGroupExpenseSettled(expenseID: GroupExpenseID, isSettled: Bool = true)

    /// Sets a group's name and description, both at once: an absent description is removed
    /// (S7; Docs/Editing.md).
    case updateGroup(groupID: GroupID, name: String, description: String? = nil, emoji: String? = nil)
    /// Adds a member or contact to a group (S7).
    case addGroupMember(groupID: GroupID, personID: PersonID)
    /// Removes a person from a group; only with a zero balance in every currency (S7, S8).
    case removeGroupMember(groupID: GroupID, personID: PersonID)
    /// Archives a group: it takes no new expenses; settlements stay possible (S7).
    case archiveGroup(groupID: GroupID)
    /// Lets an archived group take expenses again (S7).
    case unarchiveGroup(groupID: GroupID)
    /// Deletes a group whose balances are all zero (S7, S8); undo restores it (`GroupRestored`, T5).
    case deleteGroup(groupID: GroupID)

    // MARK: Periods and budgets (B1-B7)

    /// Sets the payday; a change inside a running period takes effect at its end (B1).
    /// `secondDay` makes paydays twice a month (e.g. the 1st and the 15th).
    case setPayday(day: Int, secondDay: Int? = nil)
    /// Makes paydays weekly or biweekly: periods of 7 or 14 days from the end of the open period
    /// (or from the recorded date when no payday is set); closed periods stay (B1, B6;
    /// Docs/Editing.md). `setPayday` goes back to monthly.
    case setPaySchedule(frequency: RecurrenceFrequency)
    /// Allocates a budget to an expense category from a period on (B2); `nil` = the open period.
    case allocateBudget(categoryID: CategoryID, amount: Money, fromPeriod: LocalDate? = nil)
    /// Removes a category's allocation from a period on (B2), so that it counts as not budgeted
    /// (not as budgeted 0); `nil` = the open period.
    case removeBudget(categoryID: CategoryID, fromPeriod: LocalDate? = nil)
    /// Sets how income is determined (B7).
    case setIncomeSettings(mode: IncomeMode, monthlyIncome: Money, incomeCategoryIDs: [CategoryID] = [], graceDays: Int = 3)
    /// Confirms a flagged income as a bonus that counts (B7).
    case confirmBonus(transactionID: TransactionID)
    /// Marks an income as a bonus, into the bonus pool ("Treat as bonus", "Mark as bonus"), or
    /// with `isBonus: false` takes the mark off (US-066).
    case markBonus(transactionID: TransactionID, isBonus: Bool = true)
    /// Allocates part of a bonus in the pool to an expense category's budget or to a goal,
    /// within 7 days (US-066).
    case allocateBonus(transactionID: TransactionID, categoryID: CategoryID? = nil, goalID: GoalID? = nil, amount: Money)
    /// Closes every period that ended before the command's recorded date (B6).
    case closePeriod

    // MARK: Net worth (N3)

    /// Sets an exchange rate valid from `asOf` (N3).
    case setExchangeRate(exchangeRate: ExchangeRate, asOf: LocalDate)

    // MARK: Planning (R2, R3, R6; Docs/Planning.md)

    /// Creates a savings goal (R2): linked wallets, or none for a goal tracked by hand.
    case createGoal(goalID: GoalID, goal: GoalDefinition)
    /// Replaces a goal's definition (R2).
    case updateGoal(goalID: GoalID, goal: GoalDefinition)
    /// Sets the amount saved toward a goal tracked by hand as of a date; `nil` removes that
    /// date's entry (R2).
    case setGoalAmount(goalID: GoalID, date: LocalDate, amount: Money? = nil)
    /// Deletes a goal (R2); undo restores it.
    case deleteGoal(goalID: GoalID)
    /// Saves a scenario, new or replacing the one with that id (R3).
    case saveScenario(scenario: ScenarioSaved)
    /// Deletes a scenario (R3).
    case deleteScenario(scenarioID: ScenarioID)
    /// Makes a scenario the active one, or none (`nil`: the baseline alone) (R3).
    case activateScenario(scenarioID: ScenarioID?)
    /// Sets the household's alert settings (R6).
    case setAlertSettings(settings: AlertSettingsSet)
    /// Sets a wallet's balance alert (R6): in force while its balance is below `below` or above
    /// `above`, in the wallet's currency; neither removes it. For a wallet the actor sees (G7).
    case setBalanceAlert(walletID: WalletID, below: Money? = nil, above: Money? = nil)

    // MARK: Saved views (Flow US-058, Swiff 2.3.3)

    /// Saves a view: a named transaction filter and, with `report`, a report template (its
    /// range and span); new (the actor owns it), or replacing the actor's view with that id.
    /// Private to its owner unless `shared` (G7); whoever runs it sees only what they see.
    case saveView(viewID: ViewID, name: String, shared: Bool = false, filter: TransactionFilter = TransactionFilter(), report: ReportLayout? = nil)
    /// Renames one of the actor's saved views.
    case renameView(viewID: ViewID, name: String)
    /// Deletes one of the actor's saved views; undo saves it back.
    case deleteView(viewID: ViewID)
    // MARK: Import (section 9)

    /// Saves a CSV import mapping under `name` (case-insensitive), replacing one of that name:
    /// which header holds which field, and which file category names import into which
    /// categories (Drishti E6-S9, Flow US-049).
    case saveImportMapping(name: String, columns: [ImportColumnMapping], categories: [ImportCategoryMapping] = [])
    /// Removes the saved CSV import mapping `name`.
    case removeImportMapping(name: String)
}
