import TallyModel

extension CommandExecutor {
    /// T5: `CommandUndone` followed by the command's compensating events, last event first.
    /// Rejected when the command has an irreversible event, is undone already, or a later,
    /// still effective event of another command depends on it (the error names that event).
    func undo(_ target: CommandID) throws(LedgerError) -> [EventPayload] {
        let entry = try undoableEntry(target)
        guard !entry.isUndone else { throw .violation(.alreadyUndone, "command \(target) is undone already; redo it instead") }
        try requireNoDependents(target, entry, verb: "undone")
        let compensation: [EventPayload] = entry.compensation.reversed().flatMap { $0 }
        try requireCompensationApplies(compensation)
        return [.commandUndone(CommandUndone(undoneCommandID: target))] + compensation
    }

    /// T5: `CommandRedone` followed by the events that restore the command's effect: the
    /// compensation of its last undo (an edit's new values, a restore for a deleted record...).
    func redo(_ target: CommandID) throws(LedgerError) -> [EventPayload] {
        let entry = try undoableEntry(target)
        guard entry.isUndone, let undoID = entry.lastUndo, let undoEntry = state.history.entry(for: undoID) else {
            throw .violation(.notUndone, "command \(target) is not undone, so there is nothing to redo")
        }
        if let tag = undoEntry.irreversibleTag {
            throw .violation(.notUndoable, "command \(target) cannot be redone: its undo recorded \(tag.eventName), which has no compensating event")
        }
        try requireNoDependents(target, entry, verb: "redone")
        let events: [EventPayload] = undoEntry.compensation.reversed().flatMap { $0 }
        try requireCompensationApplies(events)
        return [.commandRedone(CommandRedone(redoneCommandID: target))] + events
    }

    private func undoableEntry(_ target: CommandID) throws(LedgerError) -> CommandHistory.Entry {
        guard let entry = state.history.entry(for: target) else {
            throw .violation(.unknownCommand, "no command with id \(target) was executed in this ledger")
        }
        if entry.irreversibleTag == .sampleDataCleared {
            throw .violation(.notUndoable, "command \(target) cleared the sample data, which is permanent (E5-S6); load a sample again instead")
        }
        guard entry.target == nil else {
            throw .violation(.notUndoable, "command \(target) is itself an undo or redo; use redo or undo on the original command")
        }
        if let tag = entry.irreversibleTag {
            throw .violation(.notUndoable, "command \(target) recorded \(tag.eventName), which has no compensating event, so it cannot be undone")
        }
        guard entry.effectCount > 0 else {
            throw .violation(.notUndoable, "command \(target) only closed periods; a closed period stays closed (B6)")
        }
        return entry
    }

    private func requireNoDependents(_ target: CommandID, _ entry: CommandHistory.Entry, verb: String) throws(LedgerError) {
        if let touch = state.history.blockingTouch(for: target, entry: entry) {
            throw .violation(.undoBlocked, "command \(target) cannot be \(verb): event \(touch.sequenceNumber) (\(touch.tag.eventName), command \(touch.chain)) depends on it; undo that first")
        }
    }

    /// Re-checks rules the dependency graph does not cover: the base currency lock (H2),
    /// restoring into a wallet that was closed meanwhile (W4), changing a transaction back into
    /// a category deleted meanwhile (C3), changing back a group expense
    /// whose group was archived or deleted, or whose former members' parts would change (S7,
    /// S8), activating a scenario deleted meanwhile (R3), linking a goal to a wallet closed
    /// meanwhile (R2), and changing a closed wallet's value (W4: a transaction edited back into
    /// it, a transfer touching it deleted or changed back, a balance point of it put back or
    /// removed).
    /// W4: a closed wallet keeps the value it closed with; an undo that would change it is
    /// refused like the command it compensates (``requireOpen(_:for:)``).
    private func requireNotClosed(_ walletIDs: [WalletID], _ change: String) throws(LedgerError) {
        for walletID in walletIDs {
            if let wallet = state.wallets[walletID] { try requireOpen(wallet, for: "\(change) (an undo)") }
        }
    }

    private func requireCompensationApplies(_ events: [EventPayload]) throws(LedgerError) {
        var savedScenarios = Set<ScenarioID>()  // saved again earlier in the same compensation
        for event in events {
            switch event {
            case .baseCurrencyChanged:
                if state.hasTransactions {
                    throw .violation(.currencyLocked, "the base currency is locked once a transaction is recorded, so this change cannot be undone")
                }
            case .transactionRestored(let restored):
                if let record = state.transactions[restored.transactionID] { _ = try usableWallet(record.details.walletID) }
            case .transactionEdited(let edited):
                try requireNotClosed([edited.details.walletID], "take transaction \(edited.transactionID) back")
                // C3: a deleted category moved its transactions away and takes no new ones.
                if let category = state.categories[edited.details.categoryID], category.isDeleted {
                    throw .violation(.categoryInactive, "this would file transaction \(edited.transactionID) under \(category.name) again, which was deleted since (C3); edit the transaction instead")
                }
            case .templateEdited(let edited):
                try requireNotClosed([edited.walletID], "have template \(edited.templateID) paid from it again")
                if let category = state.categories[edited.categoryID], category.isDeleted {
                    throw .violation(.categoryInactive, "this would file template \(edited.templateID) under \(category.name) again, which was deleted since (C3); edit the template instead")
                }
            case .transferDeleted(let deleted):
                if let record = state.transfers[deleted.transferID] {
                    try requireNotClosed([record.transfer.fromWalletID, record.transfer.toWalletID], "lose transfer \(deleted.transferID)")
                }
            case .transferEdited(let edited):
                let old = state.transfers[edited.transfer.transferID].map { [$0.transfer.fromWalletID, $0.transfer.toWalletID] } ?? []
                try requireNotClosed(old + [edited.transfer.fromWalletID, edited.transfer.toWalletID], "have transfer \(edited.transfer.transferID) changed back")
            case .balanceRecorded(let point):
                try requireNotClosed([point.walletID], "have a balance point put back")
            case .balanceRemoved(let removed):
                try requireNotClosed([removed.walletID], "have a balance point removed")
            case .scenarioSaved(let saved):
                savedScenarios.insert(saved.scenarioID)
            case .scenarioActivated(let activated):
                if let id = activated.scenarioID, state.planning.scenarios[id] == nil, !savedScenarios.contains(id) {
                    throw .violation(.undoBlocked, "this would make scenario \(id) active again, but it was deleted since; undo its deletion first (R3)")
                }
            case .goalUpdated(let updated):
                try requireNotClosed(updated.goal.walletIDs, "be followed by goal \(updated.goal.name) again (R2)")
            case .groupExpenseEdited(let edited):
                // S7, S8: the group must still take changes and former members keep their parts.
                guard let record = state.groupExpenses[edited.expense.expenseID] else { break }
                try requireGroupTakesExpenseChanges(record.expense.groupID, verb: "changed back")
                try requireFormerMembersUnchanged(before: record.isDeleted ? nil : record.expense, after: record.isDeleted ? nil : edited.expense)
            case .groupExpenseDeleted(let deleted):
                guard let record = state.groupExpenses[deleted.expenseID], !record.isDeleted else { break }
                try requireGroupTakesExpenseChanges(record.expense.groupID, verb: "changed back")
                try requireFormerMembersUnchanged(before: record.expense, after: nil)
            case .groupExpenseRestored(let restored):
                guard let record = state.groupExpenses[restored.expenseID], record.isDeleted else { break }
                try requireGroupTakesExpenseChanges(record.expense.groupID, verb: "changed back")
                try requireFormerMembersUnchanged(before: nil, after: record.expense)
            default:
                break
            }
        }
    }
}
