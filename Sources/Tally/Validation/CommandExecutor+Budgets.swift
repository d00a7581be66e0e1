import TallyModel
import TallyProjections

extension CommandExecutor {
    /// The `PeriodClosed` events due before `command` (B6): one for every period whose last day
    /// is before the UTC date of the command's `recordedAt`. The business date of a transaction
    /// never closes a period (a backdated or future-dated entry is just an entry).
    func periodCloses(before command: Command) throws(LedgerError) -> [EventPayload] {
        guard state.household != nil, var start = state.periods.openStart, var end = state.periods.openEnd else { return [] }
        let today = try recordedDate(command)
        var schedule = state.periods
        var closes: [EventPayload] = []
        while end < today {
            guard closes.count < LedgerLimits.periodsClosedPerCommandMax else {
                throw .violation(.periodGapTooLarge, "recordedAt \(command.recordedAt) would close more than \(LedgerLimits.periodsClosedPerCommandMax) periods after \(start); check the host clock")
            }
            let closed = PeriodClosed(periodStart: start, periodEnd: end)
            closes.append(.periodClosed(closed))
            schedule.close(closed, paydays: state.readModels.budgets.paySchedule)
            if let recalculated = ratioRecalculation(after: closed, nextStart: schedule.openStart) {
                closes.append(.splitRatioRecalculated(recalculated))
            }
            guard let nextStart = schedule.openStart, let nextEnd = schedule.openEnd, nextStart > start else { break }
            start = nextStart
            end = nextEnd
        }
        return closes
    }

    /// S4, US-067: in income-based mode, the ratio for the period starting after `closed`,
    /// from the members' incomes in `closed`, or the household's manual ratios when none is
    /// known. `nil` in manual mode, or when the manual ratios no longer list exactly the active
    /// members (a member joined or left since): the ratio in force then stays.
    func ratioRecalculation(after closed: PeriodClosed, nextStart: LocalDate?) -> SplitRatioRecalculated? {
        guard let setting = state.splitRatioSetting, setting.mode == .incomeBased else { return nil }
        let computed = incomeBasedRatios(in: closed)
        let ratios = computed ?? setting.ratios
        guard (try? requireHouseholdRatios(ratios)) != nil else { return nil }
        return SplitRatioRecalculated(
            periodStart: nextStart ?? PaySchedule.dayAfter(closed.periodEnd), ratios: ratios, isFallback: computed == nil)
    }

    /// The UTC date of the command's `recordedAt`.
    func recordedDate(_ command: Command) throws(LedgerError) -> LocalDate {
        do {
            return try command.recordedAt.utcDate()
        } catch {
            throw .violation(.invalidValue, "recordedAt \(command.recordedAt.millisecondsSinceEpoch) ms is outside years 1...9999")
        }
    }

    func noPeriodToCloseMessage(_ command: Command) -> String {
        guard let start = state.periods.openStart, let end = state.periods.openEnd else {
            return "no payday is set, so there are no periods to close; send setPayday first"
        }
        return "the open period \(start)...\(end) has not ended at \(command.recordedAt); it closes on the first command recorded after \(end)"
    }

    func validateBudget(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .setPayday(let day, let secondDay):
            guard (1...31).contains(day) else {
                throw .violation(.paydayOutOfRange, "payday must be a day of the month 1...31, got \(day)")
            }
            if let secondDay, !(1...31).contains(secondDay) || secondDay == day {
                throw .violation(.paydayOutOfRange, "the second payday must be another day of the month 1...31 than \(day), got \(secondDay)")
            }
            let effectiveFrom: LocalDate?
            if let end = state.periods.openEnd {
                effectiveFrom = try? end.adding(days: 1)  // B1: takes effect when the open period ends
            } else {
                // The latest of the paydays on or before the recorded date starts the open period.
                let today = try recordedDate(command)
                effectiveFrom = [day, secondDay].compactMap { $0 }.compactMap { today.latestPayday(onDay: $0) }.max()
            }
            guard let effectiveFrom else { throw .violation(.invalidValue, "no period start can be computed for payday \(day)") }
            return [.paydaySet(PaydaySet(day: day, effectiveFrom: effectiveFrom, secondDay: secondDay))]
        case .setPaySchedule(let frequency):
            let interval: Int
            switch frequency {
            case .weekly: interval = 7
            case .biweekly: interval = 14
            default:
                throw .violation(.paydayOutOfRange, "a pay schedule is weekly or biweekly; for monthly paydays send setPayday with the day")
            }
            let effectiveFrom: LocalDate
            if let end = state.periods.openEnd {
                effectiveFrom = PaySchedule.dayAfter(end)  // B1: takes effect when the open period ends; closed ones stay (B6)
            } else {
                effectiveFrom = try recordedDate(command)
            }
            return [.paydaySet(PaydaySet(day: effectiveFrom.day, effectiveFrom: effectiveFrom, intervalDays: interval))]
        case .allocateBudget(let categoryID, let amount, let fromPeriod):
            let category = try usableCategory(categoryID)
            guard category.group == .expense else {
                throw .violation(.categoryGroupMismatch, "budgets are allocated to expense categories; \(category.name) is an income category")
            }
            guard amount.minorUnits >= 0 else {
                throw .violation(.budgetMustNotBeNegative, "a budget cannot be negative, got \(amount.formatted())")
            }
            try requireWithinLimit(amount, "budget")
            try requireBaseCurrency(amount, "budget")
            let from: LocalDate
            if let date = fromPeriod ?? state.periods.openStart { from = date } else { from = try recordedDate(command) }
            return [.budgetAllocated(BudgetAllocated(categoryID: categoryID, amount: amount, fromPeriod: from))]
        case .removeBudget(let categoryID, let fromPeriod):
            let category = try existingCategory(categoryID)
            let from: LocalDate
            if let date = fromPeriod ?? state.periods.openStart { from = date } else { from = try recordedDate(command) }
            guard state.budgetAmount(for: categoryID, at: from) != nil else {
                throw .violation(.budgetNotAllocated, "\(category.name) has no allocation in force from \(from); there is nothing to remove")
            }
            return [.budgetRemoved(BudgetRemoved(categoryID: categoryID, fromPeriod: from))]
        case .setIncomeSettings(let mode, let income, let categoryIDs, let graceDays):
            guard (0...31).contains(graceDays), income.minorUnits >= 0 else {
                throw .violation(.invalidIncomeSettings, "grace days must be 0...31 and the income not negative, got \(graceDays) days and \(income.formatted())")
            }
            try requireWithinLimit(income, "monthly income")
            try requireBaseCurrency(income, "monthly income")
            for id in categoryIDs {
                let category = try usableCategory(id)
                guard category.group == .income else {
                    throw .violation(.categoryGroupMismatch, "income detection uses income categories; \(category.name) is an expense category")
                }
            }
            return [.incomeSettingsSet(IncomeSettingsSet(
                mode: mode, monthlyIncome: income, incomeCategoryIDs: categoryIDs, graceDays: graceDays))]
        case .confirmBonus(let id):
            let record = try liveTransaction(id)
            guard record.details.kind == .income else {
                throw .violation(.notAnIncome, "only an income can be confirmed as a bonus; transaction \(id) is an expense")
            }
            return [.bonusConfirmed(BonusConfirmed(transactionID: id))]
        case .markBonus(let id, let isBonus):
            return [.bonusMarked(try bonusMark(id, isBonus: isBonus))]
        case .allocateBonus(let id, let categoryID, let goalID, let amount):
            return [.bonusAllocated(try bonusAllocation(id, categoryID: categoryID, goalID: goalID, amount: amount, command: command))]
        case .closePeriod:
            return []  // the PeriodClosed events were added before validation
        case .setExchangeRate(let rate, let asOf):
            return [.exchangeRateSet(ExchangeRateSet(rate: rate, asOf: asOf))]
        default:
            return []
        }
    }

    /// Throws unless `amount` is in the household's base currency.
    func requireBaseCurrency(_ amount: Money, _ what: String) throws(LedgerError) {
        guard let base = state.household?.baseCurrency, amount.currency == base else {
            throw .violation(.currencyMismatch, "the \(what) must be in the base currency \(state.household?.baseCurrency.code ?? "?"), got \(amount.formatted())")
        }
    }
}
