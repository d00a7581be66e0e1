import TallyModel
import TallyProjections

extension CommandExecutor {
    func validateSharing(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .setSplitRatio(let mode, let ratios):
            // S4, US-067: the ratios given are the manual ones, which an income-based
            // recalculation falls back to; in income-based mode one is computed now
            // ("Recalculate now", or the switch to income-based).
            try requireHouseholdRatios(ratios)
            let set = EventPayload.splitRatioSet(SplitRatioSet(mode: mode, ratios: ratios))
            guard mode == .incomeBased else { return [set] }
            let computed = state.periods.lastClosed.flatMap(incomeBasedRatios(in:))
            return [set, .splitRatioRecalculated(SplitRatioRecalculated(
                periodStart: nil, ratios: computed ?? ratios, isFallback: computed == nil))]
        case .recordSettlement(let id, let from, let to, let amount, let date, let covers, let isAdvance, let group, let note, let paymentMethod):
            guard state.settlements[id] == nil else { throw .violation(.duplicateID, "settlement id \(id) is already used") }
            guard from != to else { throw .violation(.settlementToSelf, "a settlement needs two different people") }
            try requireKnownPerson(from)
            try requireKnownPerson(to)
            try requirePositive(amount, "settlement amount")
            let settlement = SettlementRecorded(
                settlementID: id, from: from, to: to, amount: amount, date: date, covers: covers,
                isAdvance: isAdvance, groupID: group, note: try entered(note, by: command.actor), paymentMethod: paymentMethod)
            try requireWithinDebt(settlement)
            return [.settlementRecorded(settlement)]
        case .createGroup(let id, let name, let members):
            guard state.groups[id] == nil else { throw .violation(.duplicateID, "group id \(id) is already used") }
            try requireName(name, of: "group")
            for member in members { try requireKnownPerson(member) }
            guard Set(members).count == members.count, members.count >= 2 else {
                throw .violation(.groupNeedsTwoMembers, "a group needs at least two different people, got \(members.count) entries")
            }
            return [.groupCreated(GroupCreated(groupID: id, name: name, members: members))]
        case .recordGroupExpense(let id, let groupID, let paidBy, let amount, let date, let note, let split, let categoryID, let title):
            guard state.groupExpenses[id] == nil else { throw .violation(.duplicateID, "group expense id \(id) is already used") }
            let entry = GroupExpenseEntry(paidBy: paidBy, amount: amount, date: date, note: note, split: split, categoryID: categoryID, title: title)
            return [.groupExpenseRecorded(try groupExpense(id, in: groupID, entry, previous: nil, author: command.actor))]
        case .editGroupExpense(let id, let paidBy, let amount, let date, let note, let split, let categoryID, let title):
            let record = try changeableGroupExpense(id, verb: "edited")
            let entry = GroupExpenseEntry(paidBy: paidBy, amount: amount, date: date, note: note, split: split, categoryID: categoryID, title: title)
            let edited = try groupExpense(id, in: record.expense.groupID, entry, previous: record.expense, author: command.actor)
            try requireFormerMembersUnchanged(before: record.expense, after: edited)
            return [.groupExpenseEdited(GroupExpenseEdited(expense: edited))]
        case .deleteGroupExpense(let id):
            let record = try changeableGroupExpense(id, verb: "deleted")
            try requireFormerMembersUnchanged(before: record.expense, after: nil)
            return [.groupExpenseDeleted(GroupExpenseDeleted(expenseID: id))]
        case .markGroupExpenseSettled(let id, let isSettled):
            let record = try existingGroupExpense(id)
            _ = try liveGroup(record.expense.groupID)
            guard !record.isDeleted else {
                throw .violation(.groupExpenseDeleted, "group expense \(id) is deleted; undo its deletion to bring it back")
            }
            guard record.isMarkedSettled != isSettled else {
                throw .violation(.groupExpenseStateUnchanged, "group expense \(id) is \(isSettled ? "marked settled already" : "not marked settled")")
            }
            return [.groupExpenseSettledMarked(GroupExpenseSettledMarked(expenseID: id, isSettled: isSettled))]
        default:
            return []
        }
    }

    /// The fields of a group expense as a command enters them.
    private struct GroupExpenseEntry {
        var paidBy: PersonID
        var amount: Money
        var date: LocalDate
        var note: String?
        var split: GroupSplit
        var categoryID: CategoryID?
        var title: String?
    }

    /// S7: a group expense validated against its group as it is now: a live, unarchived group,
    /// a positive amount, a payer and split people who are members, the split resolved with zero
    /// residue (S3), an active expense category (an edit may keep an inactive one it had).
    /// Unchanged texts keep their author (P1).
    private func groupExpense(
        _ id: GroupExpenseID, in groupID: GroupID, _ entry: GroupExpenseEntry, previous: GroupExpenseRecorded?, author: PersonID
    ) throws(LedgerError) -> GroupExpenseRecorded {
        let group = try liveGroup(groupID)
        guard !group.isArchived else {
            let what = previous == nil ? "takes no new expenses" : "takes no expense changes"
            throw .violation(.groupArchived, "\(group.name) is archived and \(what); unarchive it first")
        }
        try requirePositive(entry.amount, "group expense")
        guard group.members.contains(entry.paidBy) else {
            throw .violation(.notInGroup, "\(name(of: entry.paidBy)) paid but is not in group \(group.name)")
        }
        let owed = try resolvePeopleSplit(entry.split, amount: entry.amount, payer: entry.paidBy) { (person) throws(LedgerError) in
            guard group.members.contains(person) else {
                throw .violation(.notInGroup, "\(name(of: person)) is not in group \(group.name)")
            }
        }
        if let categoryID = entry.categoryID {
            let category = previous?.categoryID == categoryID ? try existingCategory(categoryID) : try usableCategory(categoryID)
            guard category.group == .expense else {
                throw .violation(.categoryGroupMismatch, "a group expense needs an expense category; \(category.name) is an \(category.group) category")
            }
        }
        return GroupExpenseRecorded(
            expenseID: id, groupID: groupID, paidBy: entry.paidBy, amount: entry.amount, date: entry.date,
            note: try entered(entry.note, by: author, keeping: previous?.note), split: entry.split, owed: owed, categoryID: entry.categoryID,
            title: try entered(entry.title, by: author, keeping: previous?.title))
    }

    /// The group expense with `id`, deleted or not.
    private func existingGroupExpense(_ id: GroupExpenseID) throws(LedgerError) -> GroupExpenseRecord {
        guard let record = state.groupExpenses[id] else {
            throw .violation(.unknownGroupExpense, "no group expense has id \(id)")
        }
        return record
    }

    /// A live group expense that may still change (Docs/Editing.md "Group expenses"): not
    /// deleted, no part of it covered by a settlement (S6: settlements are permanent) and not marked settled.
    private func changeableGroupExpense(_ id: GroupExpenseID, verb: String) throws(LedgerError) -> GroupExpenseRecord {
        let record = try existingGroupExpense(id)
        guard !record.isDeleted else {
            throw .violation(.groupExpenseDeleted, "group expense \(id) is deleted; undo its deletion to bring it back")
        }
        try requireGroupTakesExpenseChanges(record.expense.groupID, verb: verb)
        if let settlement = state.debts.settlement(coveringGroupExpense: id) {
            throw .violation(.groupExpenseSettled, "group expense \(id) is covered by settlement \(settlement) and cannot be \(verb); settlements are permanent, record a correcting expense instead")
        }
        guard !record.isMarkedSettled else {
            throw .violation(.groupExpenseSettled, "group expense \(id) is marked settled and cannot be \(verb); take the mark back first")
        }
        return record
    }

    /// S8: a person who left the group keeps a zero balance there, so a change of an expense
    /// (an edit, a deletion, their undo or redo) must leave what a former member paid and owes
    /// in it exactly as it was. `before` or `after` is `nil` where the expense does not count.
    func requireFormerMembersUnchanged(before: GroupExpenseRecorded?, after: GroupExpenseRecorded?) throws(LedgerError) {
        guard let groupID = (before ?? after)?.groupID, let group = state.groups[groupID] else { return }
        func effect(_ expense: GroupExpenseRecorded?, on person: PersonID) -> (paid: Money?, owed: Money?) {
            guard let expense else { return (nil, nil) }
            return (expense.paidBy == person ? expense.amount : nil, expense.owed.first { $0.person == person && !$0.amount.isZero }?.amount)
        }
        let named = [before, after].compactMap { $0 }.flatMap { [$0.paidBy] + $0.owed.filter { !$0.amount.isZero }.map(\.person) }
        for person in Set(named).sorted() where !group.members.contains(person) {
            let old = effect(before, on: person), new = effect(after, on: person)
            guard old.paid == new.paid, old.owed == new.owed else {
                let id = (before ?? after).map { "\($0.expenseID)" } ?? ""
                throw .violation(.groupExpenseNamesFormerMember, "\(name(of: person)) left \(group.name) with a zero balance; this change would alter what they paid or owe in expense \(id), keep their part as it is")
            }
        }
    }

    /// S7: a group whose expenses may change: live (not deleted) and not archived.
    func requireGroupTakesExpenseChanges(_ groupID: GroupID, verb: String) throws(LedgerError) {
        let group = try liveGroup(groupID)
        guard !group.isArchived else {
            throw .violation(.groupArchived, "\(group.name) is archived and its expenses cannot be \(verb); unarchive it first")
        }
    }

    func requireKnownPerson(_ person: PersonID) throws(LedgerError) {
        guard state.people[person] != nil else { throw .violation(.unknownPerson, "person \(person) is not known to this household") }
    }

    /// S1: every current member exactly once, summing to 10000 bp, each at least 100 bp.
    func requireHouseholdRatios(_ ratios: [MemberRatio]) throws(LedgerError) {
        try requireRatiosSum(ratios)
        let members = Set(state.activeMembers)
        guard Set(ratios.map(\.person)) == members else {
            throw .violation(.splitRatioMembersMismatch, "the split ratio must list every member exactly once: \(members.sorted().map(name(of:)).joined(separator: ", "))")
        }
        if let low = ratios.first(where: { $0.ratio.basisPoints < 100 }) {
            throw .violation(.splitRatioBelowMinimum, "every member needs at least 1% (100 bp); \(name(of: low.person)) has \(low.ratio.basisPoints) bp")
        }
    }

    /// S4: ratios from each member's live income in the base currency dated in `period` (the
    /// period before the one that starts); `nil` (fall back to the manual ratios) when no
    /// income is known or a member would get under 1%.
    func incomeBasedRatios(in period: PeriodClosed) -> [MemberRatio]? {
        guard let base = state.household?.baseCurrency else { return nil }
        let members = state.activeMembers
        let sums = state.readModels.budgets.liveIncomeByPayer(datedIn: period.periodStart...period.periodEnd, currency: base)
        // Saturating: the sum only weighs ratios, and a journal from before the G1 limits may exceed Int64.
        let incomes = sums.mapValues { Int64(clamping: $0) }
        let weights = members.map { (key: $0, weight: incomes[$0] ?? 0) }
        guard let points = try? Allocation.allocate(10_000, weights: weights, preferred: nil),
              points.allSatisfy({ $0 >= 100 }) else { return nil }
        return zip(members, points).compactMap { person, bp in (try? Ratio(basisPoints: bp)).map { MemberRatio(person: person, ratio: $0) } }
    }

    /// S6: a settlement may not exceed what is owed unless it is an advance.
    private func requireWithinDebt(_ settlement: SettlementRecorded) throws(LedgerError) {
        let amount = settlement.amount
        let owed: Int64
        if let groupID = settlement.groupID {
            let group = try liveGroup(groupID)
            guard group.members.contains(settlement.from), group.members.contains(settlement.to) else {
                throw .violation(.notInGroup, "both people of a group settlement must be in group \(group.name)")
            }
            let fromOwes = 0 - state.debts.groupBalance(groupID, person: settlement.from, currency: amount.currency)
            let toIsOwed = state.debts.groupBalance(groupID, person: settlement.to, currency: amount.currency)
            owed = max(0, min(fromOwes, toIsOwed))
        } else {
            owed = max(0, state.debts.owedMinorUnits(by: settlement.from, to: settlement.to, in: amount.currency))
        }
        // S6: every listed item must be one the settlement covers (the debt book's one rule).
        let covered = Set(state.debts.coveredSources(by: settlement))
        for item in settlement.covers ?? [] {
            guard covered.contains(item) else {
                let place = settlement.groupID.map { " in group \((try? liveGroup($0))?.name ?? "\($0)")" } ?? " in the household"
                throw .violation(.settlementItemInvalid, "\(item) is not an open debt of \(name(of: settlement.from)) to \(name(of: settlement.to)) in \(amount.currency)\(place)")
            }
        }
        guard settlement.isAdvance || amount.minorUnits <= owed else {
            let owedMoney = Money(minorUnits: owed, currency: amount.currency)
            throw .violation(.settlementExceedsDebt, "\(name(of: settlement.from)) owes \(name(of: settlement.to)) \(owedMoney.formatted()); the settlement of \(amount.formatted()) exceeds it. Mark it as an advance to pay more")
        }
    }

    /// S7, S3: resolves a split among people into owed amounts summing exactly to the total
    /// (largest remainder, zero residue): the one rule of group expenses and of household
    /// transactions split with people (18.4). `admit` checks each person named.
    func resolvePeopleSplit(
        _ split: GroupSplit, amount: Money, payer: PersonID, admit: (PersonID) throws(LedgerError) -> Void
    ) throws(LedgerError) -> [PersonShare] {
        let people: [PersonID]
        switch split {
        case .equal(let list): people = list
        case .exact(let shares): people = shares.map(\.person)
        case .percentage(let ratios): people = ratios.map(\.person)
        case .shares(let weights): people = weights.map(\.person)
        }
        guard !people.isEmpty, Set(people).count == people.count else {
            throw .violation(.invalidShares, "a split lists each person once and at least one person")
        }
        for person in people { try admit(person) }
        do {
            switch split {
            case .equal(let list):
                return try Allocation.splitEqually(amount, among: list, payer: payer)
            case .exact(let shares):
                // 128-bit: 100 shares of up to Int64.max each cannot overflow (G1).
                let total = shares.reduce(Int128(0)) { $0 + Int128($1.amount.minorUnits) }
                guard shares.allSatisfy({ $0.amount.currency == amount.currency && $0.amount.minorUnits >= 0 }), total == Int128(amount.minorUnits) else {
                    throw LedgerError.violation(.exactSplitMustSumToTotal, "exact amounts must be non-negative in \(amount.currency) and sum to \(amount.formatted()); they sum to \(total) minor units")
                }
                return shares
            case .percentage(let ratios):
                try requireRatiosSum(ratios)
                return try Allocation.split(amount, ratios: ratios, payer: payer)
            case .shares(let weights):
                guard weights.allSatisfy({ $0.weight > 0 && $0.weight <= 1_000_000 }) else {
                    throw LedgerError.violation(.invalidShares, "share weights must be 1...1000000")
                }
                return try Allocation.split(amount, weights: weights.map { ($0.person, $0.weight) }, payer: payer)
            }
        } catch let error as LedgerError {
            throw error
        } catch {
            throw .violation(.invalidValue, "the split cannot be resolved: \(error)")
        }
    }
}
