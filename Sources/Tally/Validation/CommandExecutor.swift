import TallyModel

/// Validates commands one rule at a time against a scratch state and produces their events
/// (G6). Each accepted command's events are applied to ``state`` at once, so the next command
/// of a batch sees them. Never reads a clock or random numbers (G3): every id comes from the
/// command and every time from its `recordedAt`.
struct CommandExecutor {
    /// The scratch state; it includes every event produced so far.
    var state: LedgerState
    /// The events produced so far, in order.
    private(set) var events: [Event] = []

    /// The host's caps on live entities (``EntityLimits``), checked on new commands only.
    var limits: EntityLimits = .none

    /// The sequence number of the batch's first event: what was recorded before it is not this
    /// batch's (E5-S6: sample commands are the batch's own).
    let batchStart: UInt64

    /// Where the texts a command enters come from (``EnteredTexts``): its own strings, unless
    /// it is a synced command's.
    let texts: EnteredTexts

    /// Starts from `state`, with the host's entity caps (none by default), in a batch that
    /// started at `batchStart` (`nil`: at `state`), taking entered texts from `texts`.
    init(state: LedgerState, limits: EntityLimits = .none, batchStart: UInt64? = nil, texts: EnteredTexts = .plain) {
        self.state = state
        self.limits = limits
        self.batchStart = batchStart ?? state.nextSequenceNumber
        self.texts = texts
    }

    /// The personal text `command` enters as `text` in a field of `owner` that held `previous`
    /// (P1): the one way a command's name or note becomes a ``PersonalText`` (``EnteredTexts``).
    func entered(_ text: String, by owner: PersonID, keeping previous: PersonalText? = nil) throws(LedgerError) -> PersonalText {
        try texts.enter(text, by: owner, keeping: previous)
    }

    /// ``entered(_:by:keeping:)`` of an optional text; `nil` without one.
    func entered(_ text: String?, by owner: PersonID, keeping previous: PersonalText? = nil) throws(LedgerError) -> PersonalText? {
        guard let text else { return nil }
        return try texts.enter(text, by: owner, keeping: previous)
    }

    /// Validates `command` and applies its events, preceded by a `PeriodClosed` for every
    /// period that ended before its recorded date (B6).
    /// - Throws: ``LedgerError/rejected(_:)`` naming the rule; the state is then unchanged.
    mutating func execute(_ command: Command) throws(LedgerError) {
        let closes: [EventPayload]
        switch try Self.plan(command, against: state, limits: limits, batchStart: batchStart, texts: texts) {
        case .ready(let events):
            for event in events {
                state.apply(event)
                self.events.append(event)
            }
            return
        case .closesFirst(let payloads):
            closes = payloads
        }
        // Periods close first (B6): validate on a copy that has them, so that a rejection
        // leaves the state unchanged.
        var scratch = self
        for payload in closes { scratch.emit(payload, for: command) }
        let payloads = try scratch.validate(command)
        for payload in payloads { scratch.emit(payload, for: command) }
        self = scratch
    }

    /// What a command needs before it can be validated.
    enum Plan {
        /// No period closes first: its events, validated against the state as it is.
        case ready([Event])
        /// These `PeriodClosed` payloads come first (B6); validate on a copy that holds them.
        case closesFirst([EventPayload])
    }

    /// The events of `command` against `state` when no period has to close first (the common
    /// case): validation only reads the state, so nothing is copied. Otherwise the closes, for
    /// ``execute(_:)`` to validate on a copy that holds them.
    /// - Throws: ``LedgerError/rejected(_:)`` naming the rule.
    static func plan(
        _ command: Command, against state: LedgerState, limits: EntityLimits = .none, batchStart: UInt64? = nil, texts: EnteredTexts = .plain
    ) throws(LedgerError) -> Plan {
        if state.history.entry(for: command.commandID) != nil {
            throw .violation(.duplicateCommandID, "command \(command.commandID) was executed before; every command needs a new id")
        }
        let executor = CommandExecutor(state: state, limits: limits, batchStart: batchStart, texts: texts)
        let closes = try executor.periodCloses(before: command)
        if closes.isEmpty, case .closePeriod = command.action {
            throw .violation(.noPeriodToClose, executor.noPeriodToCloseMessage(command))
        }
        let due = closes + (try executor.bonusRollIns(before: command))  // US-066: bonuses past their 7 days
        guard due.isEmpty else { return .closesFirst(due) }
        return .ready(try executor.validate(command).map { payload in
            Event(commandID: command.commandID, actor: command.actor, recordedAt: command.recordedAt, payload: payload)
        })
    }

    /// Wraps, applies and keeps one event.
    private mutating func emit(_ payload: EventPayload, for command: Command) {
        let event = Event(commandID: command.commandID, actor: command.actor, recordedAt: command.recordedAt, payload: payload)
        state.apply(event)
        events.append(event)
    }

    /// Checks one command against the state and returns the events it produces, after
    /// checking every amount, currency and sum they record (G1, ``requireBounded(_:)``).
    private func validate(_ command: Command) throws(LedgerError) -> [EventPayload] {
        let payloads = try validateRules(command)
        try texts.requireAllReplayed()
        try requireBounded(payloads)
        try requireWithinEntityLimits(payloads, at: command.recordedAt)
        return payloads
    }

    /// Checks one command against the domain rules and returns the events it produces.
    private func validateRules(_ command: Command) throws(LedgerError) -> [EventPayload] {
        try requireInputSizes(command.action)
        if case .createHousehold(let id, let name, let currency, let adminName) = command.action {
            return try createHousehold(id: id, name: name, currency: currency, adminName: adminName, command: command)
        }
        guard state.household != nil else {
            throw .violation(.noHousehold, "no household exists yet; send createHousehold first")
        }
        // The invitee is not a member yet: the invitation is what lets them act (H6).
        if case .acceptInvitation(let id) = command.action { return try acceptInvitation(id, command: command) }
        try requireActiveMember(command.actor, role: "the acting person", code: .unknownActor)
        switch command.action {
        case .createHousehold:
            return []
        case .changeBaseCurrency, .setFirstWeekday, .addMember, .removeMember, .transferAdmin, .addPerson, .archivePerson, .forgetPerson, .deletePerson,
             .renamePerson, .updatePerson, .unarchivePerson, .setPersonAvatar:
            return try validateHousehold(command)
        case .inviteMember, .cancelInvitation, .acceptInvitation:
            return try validateInvitation(command)
        case .openWallet, .renameWallet, .changeWalletKind, .deactivateWallet, .reactivateWallet, .closeWallet,
             .recordBalance, .editBalance, .removeBalance, .recordTransfer, .editTransfer, .deleteTransfer, .setWalletDesignation,
             .setWalletValuation, .setWalletConnection, .reopenWallet:
            return try validateWallet(command)
        case .createCategory, .renameCategory, .deactivateCategory, .reactivateCategory, .deleteCategory,
             .updateCategory, .reorderCategories, .setCategoryTaxClass:
            return try validateCategory(command)
        case .recordTransaction, .editTransaction, .deleteTransaction, .restoreTransaction, .createTemplate,
             .pauseTemplate, .resumeTemplate, .activateTemplate:
            return try validateTransaction(command)
        case .addAttachment, .removeAttachment:
            return try validateAttachment(command)
        case .changeTemplatePrice, .cancelTemplate, .postDueOccurrences, .editTemplate, .setTemplateProfile, .markOccurrenceBilling,
             .setSharingAcceptance:
            return try validateSubscription(command)
        case .setSplitRatio, .recordSettlement, .createGroup, .recordGroupExpense, .editGroupExpense, .deleteGroupExpense,
             .markGroupExpenseSettled:
            return try validateSharing(command)
        case .updateGroup, .addGroupMember, .removeGroupMember, .archiveGroup, .unarchiveGroup, .deleteGroup:
            return try validateGroupChange(command)
        case .setPayday, .setPaySchedule, .allocateBudget, .removeBudget, .setIncomeSettings, .confirmBonus, .closePeriod, .setExchangeRate,
             .markBonus, .allocateBonus:
            return try validateBudget(command)
        case .createGoal, .updateGoal, .setGoalAmount, .deleteGoal, .saveScenario, .deleteScenario, .activateScenario,
             .setAlertSettings, .setBalanceAlert:
            return try validatePlanning(command)
        case .saveImportMapping, .removeImportMapping:
            return try validateImport(command)
        case .saveView, .renameView, .deleteView:
            return try validateView(command)
        case .undo(let target):
            return try undo(target)
        case .redo(let target):
            return try redo(target)
        case .loadSampleData(let commandIDs):
            return try loadSampleData(commandIDs)
        case .clearSampleData:
            return try clearSampleData(command)
        }
    }

    // MARK: Shared checks

    /// A display name for messages: the person's name and id.
    func name(of person: PersonID) -> String {
        state.people[person].map { "\($0.name) (\(person))" } ?? "\(person)"
    }

    /// Throws unless `person` is a household member who was not removed.
    func requireActiveMember(_ person: PersonID, role: String, code: RuleViolation.Code = .notAMember) throws(LedgerError) {
        guard let record = state.people[person] else {
            throw .violation(code == .notAMember ? .unknownPerson : code, "\(role) \(person) is not known to this household")
        }
        guard record.isMember, !record.isRemoved else {
            throw .violation(code, "\(role) \(name(of: person)) is not an active member of the household")
        }
    }

    /// Throws unless `name` is non-empty and within the length limit.
    func requireName(_ name: String, of what: String) throws(LedgerError) {
        guard !name.allSatisfy(\.isWhitespace) else { throw .violation(.nameRequired, "the \(what) needs a name") }
        guard name.utf8.count <= LedgerLimits.nameBytesMax else {
            throw .violation(.invalidValue, "the \(what) name is longer than \(LedgerLimits.nameBytesMax) bytes")
        }
    }

    /// Throws unless `amount` is positive and within ``LedgerLimits/amountMinorUnitsMax`` (T1).
    func requirePositive(_ amount: Money, _ what: String) throws(LedgerError) {
        guard amount.minorUnits > 0 else {
            throw .violation(.amountMustBePositive, "the \(what) must be more than zero, got \(amount.formatted())")
        }
        try requireWithinLimit(amount, what)
    }

    /// Throws when `amount`'s magnitude exceeds ``LedgerLimits/amountMinorUnitsMax`` (G1).
    func requireWithinLimit(_ amount: Money, _ what: String) throws(LedgerError) {
        guard amount.minorUnits.magnitude <= UInt64(LedgerLimits.amountMinorUnitsMax) else {
            throw .violation(.invalidValue, "the \(what) \(amount.formatted()) exceeds the largest amount the ledger accepts")
        }
    }
}

extension LedgerState {
    /// Refuses `command` as executing it now would (G6), without executing it: what an import
    /// planner checks each row's command against, so a row the engine would refuse fails
    /// alone, naming its line, instead of failing the batch. A command behind a pay period that
    /// must close first is checked as far as the closes allow (the batch decides the rest).
    /// - Throws: the rejection naming the rule.
    package func check(_ command: Command) throws(LedgerError) {
        _ = try CommandExecutor.plan(command, against: self)
    }

    /// The state after `command`, or its rejection (G6), without recording anything: what a
    /// planner checks a command against when a later command of its plan depends on it (an
    /// import's new category, then the rows in it).
    /// - Throws: the rejection naming the rule.
    package func applying(_ command: Command) throws(LedgerError) -> LedgerState {
        var executor = CommandExecutor(state: self)
        try executor.execute(command)
        return executor.state
    }
}
