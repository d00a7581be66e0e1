import TallyModel
import TallyProjections
import TallyStore

/// The planning read models as of one acknowledged batch: goals (R2), scenarios (R3) and
/// alerts (R6). ``Ledger`` answers the same questions directly; an app observes them with
/// ``Ledger/observePlanning(_:)``. The view is valid while the closure it is passed to runs.
public struct PlanningView: Sendable {
    let state: LedgerState
    let models: Projections
    let store: LedgerStore?

    /// A view over a validation state and read models of the same sequence number (the CLI's
    /// replayed history), with the store that shows it, if any.
    package init(state: LedgerState, models: Projections, store: LedgerStore?) {
        self.state = state
        self.models = models
        self.store = store
    }

    /// Every live goal `viewer` sees, with its progress at the end of `date`, by name then id
    /// (R2). A goal saved in another member's own wallet is theirs (G7): a member sees the goals
    /// whose wallets they all see.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a converted total does not fit (G1).
    public func goals(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> [GoalProgress] {
        try query { () throws(ProjectionError) in try models.goals.progress(on: date, wallets: models.wallets) }.filter { sees($0.goal, viewer) }
    }

    /// One goal's progress at the end of `date` (R2).
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownGoal` when no live goal `viewer` sees has `id`.
    public func goal(_ id: GoalID, on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> GoalProgress {
        let progress = try query { () throws(ProjectionError) in try models.goals.progress(of: id, on: date, wallets: models.wallets) }
        guard let progress, sees(progress.goal, viewer) else { throw .violation(.unknownGoal, "no live goal \(viewer) sees has id \(id)") }
        return progress
    }

    /// Every milestone the live goals `viewer` sees reached, in the order they were reached (R2).
    public func goalMilestones(visibleTo viewer: Viewer) -> [GoalMilestone] {
        models.goals.milestones.filter { milestone in models.goals.goals[milestone.goalID].map { sees($0.goal, viewer) } ?? false }
    }

    /// Whether `viewer` sees every wallet a goal saves in (G7).
    private func sees(_ goal: GoalDefinition, _ viewer: Viewer) -> Bool {
        GoalProjection.isSeen(goal, by: viewer, wallets: models.wallets)
    }

    /// The saved scenarios, by name then id (R3).
    public var scenarios: [ScenarioSaved] {
        state.planning.scenarios.values.sorted { ($0.name, $0.scenarioID) < ($1.name, $1.scenarioID) }
    }

    /// The active scenario, if any (R3).
    public var activeScenarioID: ScenarioID? { state.planning.activeScenario }

    /// Twelve projected months of the baseline (N4) and of scenario `id` side by side (R3);
    /// `nil` for the active scenario (the baseline alone when none is active). `date` is the
    /// month the projection starts after when the ledger has no history, and the month whose
    /// three whole months before are the reference of a savings-rate delta
    /// (`ScenarioSavingsRate`, read from the store).
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownScenario`; ``LedgerError/invalidQuery(_:)``
    ///   when a value does not fit.
    public func scenarioSeries(_ id: ScenarioID? = nil, on date: LocalDate) throws(LedgerError) -> ScenarioSeries {
        try scenarioSeries(of: resolvedScenario(id), on: date)
    }

    /// The saved scenario `id` names, or the active one when `id` is `nil` (R3).
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownScenario`.
    func resolvedScenario(_ id: ScenarioID?) throws(LedgerError) -> ScenarioSaved? {
        guard let id else { return state.planning.activeScenario.flatMap { state.planning.scenarios[$0] } }
        guard let saved = state.planning.scenarios[id] else { throw .violation(.unknownScenario, "no saved scenario has id \(id)") }
        return saved
    }

    /// The baseline and `scenario` (resolved by ``resolvedScenario(_:)``) side by side for 12 months.
    func scenarioSeries(of scenario: ScenarioSaved?, on date: LocalDate) throws(LedgerError) -> ScenarioSeries {
        let rate = try scenario.flatMap { saved throws(LedgerError) in try savingsRate(of: saved, on: date) }
        return try query { () throws(ProjectionError) in
            try models.netWorth.scenarioSeries(scenario, fallbackMonth: date.yearMonth, savingsRate: rate)
        }
    }

    /// The monthly amount the savings-rate delta of `scenario` stands for (E9-S1), from the
    /// household's income and expenses (R4, base currency, `Viewer/audit`: a scenario is the
    /// household's) in the three whole months before `date`'s month, within the guard rails
    /// (`ScenarioSavingsRate`); `nil` without a delta.
    func savingsRate(of scenario: ScenarioSaved, on date: LocalDate) throws(LedgerError) -> ScenarioSavingsRate? {
        guard let delta = scenario.savingsRateDeltaBasisPoints, delta != 0 else { return nil }
        guard let store else { throw .readSide("a savings-rate scenario reads income and expenses from the read-side store, which this ledger does not keep; run `tally rebuild`") }
        let (first, last) = try LocalDate.threeWholeMonths(before: date)
        let report = try AnalyticsReport(
            AnalyticsQuery(span: .range, from: first, through: last, filter: TransactionQuery(visibleTo: .audit)), store: store, wallets: models.wallets,
            firstWeekday: models.budgets.firstWeekday)
        let currency = report.currency
        let totals = report.periods.first?.totals
        func monthly(_ total: Money?) -> Money {
            Money(minorUnits: Int64(clamping: Int128(total?.minorUnits ?? 0).dividedRoundingHalfEven(by: 3)), currency: currency)
        }
        return try query { () throws(ProjectionError) in
            try ScenarioSavingsRate(deltaBasisPoints: delta, referenceMonths: first...last, referenceIncome: monthly(totals?.income),
                                    referenceExpense: monthly(totals?.expense), incomeDelta: scenario.monthlyIncomeDelta,
                                    expenseDelta: scenario.monthlyExpenseDelta)
        }
    }

    /// The alert settings in force (R6): the household's, or `AlertSettingsSet.defaults`.
    public var alertSettings: AlertSettingsSet { state.planning.alertSettings ?? .defaults }

    /// The alerts in force at the end of `date` (R6), budget, upcoming, price increase, large,
    /// stale, settle-up in that order (within a kind: by category, by date, by template and date,
    /// largest first, by wallet, by person): budget thresholds crossed in the pay period
    /// containing `date`, recurring items billed within the next `upcomingDays`, price increases
    /// taking effect within `priceIncreaseDays` before or after `date`, transactions in that pay
    /// period of at least `largeTransaction` (in its currency; at most
    /// ``largeTransactionAlertsMax``, largest first), value-observed wallets whose latest balance
    /// point is `staleBalanceDays` old or older, and balances with a person of at least
    /// `settleUpThreshold` either way (``personBalances(visibleTo:)``; one alert per pair), and
    /// categories whose expenses this month reached `spikePercent` of their trailing monthly
    /// average (Swiff 4.3.1). For a member `viewer`
    /// (G7): the recurring items, transactions, wallets and balances they see; the budget is the
    /// household's.
    /// - Throws: ``LedgerError/readSide(_:)`` when a large-transaction threshold or a spike
    ///   percent is set and the ledger keeps no read-side store; ``LedgerError/invalidQuery(_:)`` when a total overflows.
    public func alerts(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> [LedgerAlert] {
        let settings = alertSettings
        var alerts: [LedgerAlert] = []
        let period = models.budgets.period(containing: date)
        let report = try query { () throws(ProjectionError) in try models.budgets.budget(for: period) }
        for line in report.categories {
            guard let points = line.percentBasisPoints else { continue }
            // points / 100 >= threshold is points >= threshold * 100 without a product that can
            // overflow (settings restored from a backup are folded, not validated again).
            for threshold in settings.budgetThresholds where points / 100 >= threshold {
                alerts.append(LedgerAlert(kind: .budget(
                    categoryID: line.categoryID, period: period, thresholdPercent: threshold, spent: line.spent, allocated: line.allocated)))
            }
        }
        let book = SubscriptionBook(state: state, visibleTo: viewer)
        if settings.upcomingDays > 0 {
            for occurrence in book.upcoming(from: date, days: Int(settings.upcomingDays)) where occurrence.transactionID == nil {
                alerts.append(LedgerAlert(kind: .upcoming(templateID: occurrence.templateID, date: occurrence.date, amount: occurrence.price)))
            }
        }
        if settings.priceIncreaseWindow > 0 {
            for increase in book.priceIncreases(around: date, days: settings.priceIncreaseWindow) {
                alerts.append(LedgerAlert(kind: .priceIncrease(
                    templateID: increase.templateID, effectiveFrom: increase.effectiveFrom, previous: increase.previous, price: increase.price)))
            }
        }
        if let large = settings.largeTransaction {
            alerts += try largeTransactions(of: large, in: period, visibleTo: viewer)
        }
        if settings.staleBalanceDays > 0 {
            for wallet in (try? models.wallets.balances(visibleTo: viewer)) ?? [] where wallet.countsInTotals && wallet.valuation == .observed {
                guard let last = models.wallets.balancePoints(of: wallet.walletID).last?.date else { continue }
                let age = last.days(until: date)
                if age >= settings.staleBalanceDays {
                    alerts.append(LedgerAlert(kind: .staleBalance(walletID: wallet.walletID, lastPointOn: last, days: age)))
                }
            }
        }
        if let threshold = settings.settleUpThreshold {
            // One alert per pair: the audit's list has each pair from both sides.
            for balance in try personBalances(visibleTo: viewer)
            where (viewer.person != nil || balance.person < balance.other) && balance.owedToPerson.currency == threshold.currency && balance.owedToPerson.minorUnits.magnitude >= threshold.minorUnits.magnitude {
                alerts.append(LedgerAlert(kind: .settleUp(person: balance.person, other: balance.other, amount: balance.owedToPerson)))
            }
        }
        if let percent = settings.spikePercent {
            alerts += try spendingSpikes(at: percent, on: date, visibleTo: viewer)
        }
        return alerts + (try balanceThresholds(on: date, visibleTo: viewer))
    }

    /// The wallets' balance alerts `viewer` sees (R6, G7: the household's wallets and their
    /// own), by wallet.
    public func balanceAlerts(visibleTo viewer: Viewer) -> [WalletBalanceAlertSet] {
        state.planning.balanceAlerts.values.filter { viewer.sees(walletOwnedBy: state.wallets[$0.walletID]?.owner) }
            .sorted { $0.walletID < $1.walletID }
    }

    /// R6: the wallets `viewer` sees that count (active, not closed) whose balance at the end of
    /// `date` is below or above their alert's threshold, by wallet name.
    private func balanceThresholds(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> [LedgerAlert] {
        let thresholds = state.planning.balanceAlerts
        guard !thresholds.isEmpty else { return [] }
        var alerts: [LedgerAlert] = []
        for wallet in try query({ () throws(ProjectionError) in try models.wallets.balances(asOf: date, visibleTo: viewer) }) where wallet.countsInTotals {
            guard let alert = thresholds[wallet.walletID] else { continue }
            if let below = alert.below, wallet.balance.minorUnits < below.minorUnits {
                alerts.append(LedgerAlert(kind: .balanceBelow(walletID: wallet.walletID, balance: wallet.balance, threshold: below)))
            }
            if let above = alert.above, wallet.balance.minorUnits > above.minorUnits {
                alerts.append(LedgerAlert(kind: .balanceAbove(walletID: wallet.walletID, balance: wallet.balance, threshold: above)))
            }
        }
        return alerts
    }

    /// Swiff 4.3.1: for each category and currency, the expenses `viewer` sees in the month of
    /// `date` through `date` against the monthly average of the three whole months before
    /// (their sum / 3, half to even); a spike when that average is above zero and the month's
    /// expenses are at least `percent` of it. By category, then currency. One grouped query of
    /// the store (four spans), so the cost does not grow with history.
    private func spendingSpikes(at percent: Int64, on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> [LedgerAlert] {
        guard let store else { throw .readSide("spending-spike alerts read the read-side store, which this ledger does not keep; run `tally rebuild`") }
        let month = date.yearMonth
        var spans: [PayPeriod] = []
        do {
            for back in (1...3).reversed() {
                let earlier = try month.adding(months: -back)
                spans.append(PayPeriod(start: earlier.firstDay, end: earlier.lastDay))
            }
        } catch {
            return []  // the first months of the calendar have no trailing months
        }
        let current = PayPeriod(start: month.firstDay, end: date)
        var query = TransactionQuery(visibleTo: viewer)
        query.kinds = [.expense]
        let rows: [PeriodTotal]
        do {
            rows = try store.categoryTotals(byPeriod: spans + [current], query)
        } catch {
            throw LedgerError(error)
        }
        struct Key: Hashable { let category: CategoryID; let currency: Currency }
        var trailing: [Key: Int128] = [:]
        var now: [Key: Int64] = [:]
        for row in rows {
            guard let category = row.categoryID else { continue }
            let key = Key(category: category, currency: row.total.currency)
            if row.period == current { now[key, default: 0] += row.total.minorUnits } else { trailing[key, default: 0] += Int128(row.total.minorUnits) }
        }
        var alerts: [LedgerAlert] = []
        for (key, spent) in now.sorted(by: { ($0.key.category, $0.key.currency.code) < ($1.key.category, $1.key.currency.code) }) {
            let average = (trailing[key] ?? 0).dividedRoundingHalfEven(by: 3)
            guard average > 0, Int128(spent) * 100 >= average * Int128(percent) else { continue }
            alerts.append(LedgerAlert(kind: .spendingSpike(
                categoryID: key.category, month: month, spent: Money(minorUnits: spent, currency: key.currency),
                trailingAverage: Money(minorUnits: Int64(clamping: average), currency: key.currency))))
        }
        return alerts
    }

    /// Each person's balance with the others across the household and groups (Swiff 1.3.1,
    /// `PersonBalance`): a member `viewer`'s own; for the audit, every person's, by person
    /// (each pair from both sides). A member never gets a pair they are not in (G7).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a balance overflows.
    public func personBalances(visibleTo viewer: Viewer) throws(LedgerError) -> [PersonBalance] {
        let people = viewer.person.map { [$0] } ?? state.people.keys.sorted()
        var result: [PersonBalance] = []
        for person in people {
            result += try query { () throws(ProjectionError) in try models.debts.personBalances(of: person) }
        }
        return result
    }

    /// The most large-transaction alerts one query returns.
    public static let largeTransactionAlertsMax = 100

    private func largeTransactions(of threshold: Money, in period: PayPeriod, visibleTo viewer: Viewer) throws(LedgerError) -> [LedgerAlert] {
        guard let store else { throw .readSide("large-transaction alerts read the read-side store, which this ledger does not keep; run `tally rebuild`") }
        var query = TransactionQuery(visibleTo: viewer)
        query.dates = period.start...period.end
        query.minorUnits = threshold.minorUnits...Int64.max
        query.order = .largestFirst
        query.limit = Self.largeTransactionAlertsMax
        var alerts: [LedgerAlert] = []
        do {
            // The store compares minor units whatever the currency: page on until the threshold's
            // currency has filled the list or the period has no more such amounts.
            repeat {
                let page = try store.transactions(query)
                for item in page.rows.map(\.transaction) where item.amount.currency == threshold.currency && alerts.count < Self.largeTransactionAlertsMax {
                    alerts.append(LedgerAlert(kind: .largeTransaction(transactionID: item.transactionID, date: item.date, amount: item.amount)))
                }
                query.after = page.next
            } while query.after != nil && alerts.count < Self.largeTransactionAlertsMax
            return alerts
        } catch {
            throw LedgerError(error)
        }
    }

    private func query<Value>(_ body: () throws(ProjectionError) -> Value) throws(LedgerError) -> Value {
        do { return try body() } catch { throw .invalidQuery(error.description) }
    }
}
