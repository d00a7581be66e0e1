import TallyModel
import TallyProjections

extension CommandExecutor {
    func validateSharing(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .setSplitRatio(let mode, let ratios):
            let resolved = mode == .incomeBased ? (incomeBasedRatios() ?? ratios) : ratios
            try requireHouseholdRatios(resolved)
            return [.splitRatioSet(SplitRatioSet(mode: mode, ratios: resolved))]
        case .recordSettlement(let id, let from, let to, let amount, let date, let covers, let isAdvance, let group):
            guard state.settlements[id] == nil else { throw .violation(.duplicateID, "settlement id \(id) is already used") }
            guard from != to else { throw .violation(.settlementToSelf, "a settlement needs two different people") }
            try requireKnownPerson(from)
            try requireKnownPerson(to)
            try requirePositive(amount, "settlement amount")
            let settlement = SettlementRecorded(
                settlementID: id, from: from, to: to, amount: amount, date: date, covers: covers,
                isAdvance: isAdvance, groupID: group)
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
        case .recordGroupExpense(let id, let groupID, let paidBy, let amount, let date, let note, let split, let categoryID):
            guard state.groupExpenses[id] == nil else { throw .violation(.duplicateID, "group expense id \(id) is already used") }
            let group = try liveGroup(groupID)
            guard !group.isArchived else {
                throw .violation(.groupArchived, "\(group.name) is archived and takes no new expenses; unarchive it first")
            }
            try requirePositive(amount, "group expense")
            guard group.members.contains(paidBy) else {
                throw .violation(.notInGroup, "\(name(of: paidBy)) paid but is not in group \(group.name)")
            }
            let owed = try resolveGroupSplit(split, amount: amount, payer: paidBy, group: group)
            if let categoryID {
                let category = try usableCategory(categoryID)
                guard category.group == .expense else {
                    throw .violation(.categoryGroupMismatch, "a group expense needs an expense category; \(category.name) is an \(category.group) category")
                }
            }
            return [.groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: id, groupID: groupID, paidBy: paidBy, amount: amount, date: date, note: note.map { PersonalText($0, owner: command.actor) },
                split: split, owed: owed, categoryID: categoryID))]
        default:
            return []
        }
    }

    func requireKnownPerson(_ person: PersonID) throws(LedgerError) {
        guard state.people[person] != nil else { throw .violation(.unknownPerson, "person \(person) is not known to this household") }
    }

    /// S1: every current member exactly once, summing to 10000 bp, each at least 100 bp.
    private func requireHouseholdRatios(_ ratios: [MemberRatio]) throws(LedgerError) {
        try requireRatiosSum(ratios)
        let members = Set(state.activeMembers)
        guard Set(ratios.map(\.person)) == members else {
            throw .violation(.splitRatioMembersMismatch, "the split ratio must list every member exactly once: \(members.sorted().map(name(of:)).joined(separator: ", "))")
        }
        if let low = ratios.first(where: { $0.ratio.basisPoints < 100 }) {
            throw .violation(.splitRatioBelowMinimum, "every member needs at least 1% (100 bp); \(name(of: low.person)) has \(low.ratio.basisPoints) bp")
        }
    }

    /// S4: ratios from each member's income in the last closed period; `nil` (fall back to
    /// the given manual ratios) when no income is known or a member would get under 1%.
    private func incomeBasedRatios() -> [MemberRatio]? {
        guard let period = state.periods.lastClosed, state.household?.baseCurrency != nil else { return nil }
        let members = state.activeMembers
        // Live income in the base currency per date and payer (`LedgerState.incomeByDate`).
        var sums: [PersonID: Int128] = [:]
        for (date, payers) in state.incomeByDate where (period.periodStart...period.periodEnd).contains(date) {
            for (payer, amount) in payers where members.contains(payer) { sums[payer, default: 0] += amount }
        }
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
            owed = max(0, state.debts.owed(by: settlement.from, to: settlement.to, in: amount.currency))
            for item in settlement.covers ?? [] {
                guard case .transaction(let id) = item, let record = state.transactions[id], !record.isDeleted,
                      record.settledBy == nil,
                      record.details.debts.contains(where: { $0.debtor == settlement.from && $0.creditor == settlement.to })
                else {
                    throw .violation(.settlementItemInvalid, "\(item) is not an open debt of \(name(of: settlement.from)) to \(name(of: settlement.to))")
                }
            }
        }
        guard settlement.isAdvance || amount.minorUnits <= owed else {
            let owedMoney = Money(minorUnits: owed, currency: amount.currency)
            throw .violation(.settlementExceedsDebt, "\(name(of: settlement.from)) owes \(name(of: settlement.to)) \(owedMoney.formatted()); the settlement of \(amount.formatted()) exceeds it. Mark it as an advance to pay more")
        }
    }

    /// S7: resolves the split into owed amounts summing to the total (S3 rounding).
    private func resolveGroupSplit(_ split: GroupSplit, amount: Money, payer: PersonID, group: GroupRecord) throws(LedgerError) -> [PersonShare] {
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
        if let outsider = people.first(where: { !group.members.contains($0) }) {
            throw .violation(.notInGroup, "\(name(of: outsider)) is not in group \(group.name)")
        }
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
