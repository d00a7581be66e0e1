import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// R2 goals, R3 scenarios and R6 alerts on a ledger: commands, rejections naming the rule, undo,
/// the derived progress, milestones, series and alerts, and their observation.
@Suite("Planning: goals, scenarios, alerts (R2, R3, R6)")
struct PlanningTests {
    static func household(_ label: String, durability: DurabilityPolicy = .none) async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: durability)
        try await test.ledger.execute(s.setup())  // Joint: CHF 1000.00 from 2026-01-01
        return (test, s)
    }

    static func income(_ s: Scenario, _ units: Int64, _ wallet: WalletID, _ day: String, _ currency: Currency = .chf) -> TransactionEntry {
        TransactionEntry(kind: .income, amount: Money(minorUnits: units, currency: currency), walletID: wallet, categoryID: s.salary,
                         date: Scenario.date(day), payer: s.alice)
    }

    static func expense(_ s: Scenario, _ units: Int64, _ day: String, category: CategoryID? = nil) -> TransactionEntry {
        TransactionEntry(kind: .expense, amount: Scenario.chf(units), walletID: s.joint, categoryID: category ?? s.groceries,
                         date: Scenario.date(day), payer: s.alice)
    }

    static func rate(_ text: String) -> ExchangeRate {
        guard let rate = try? ExchangeRate.parse(base: .eur, quote: .chf, text) else { preconditionFailure("bad test rate \(text)") }
        return rate
    }

    // MARK: R2 goals

    @Test("R2: a goal's progress is its linked wallets' summed value converted exactly and rounded once (G2); milestones come once each, in order, even when one event passes several")
    func linkedGoalProgressAndMilestones() async throws {
        var (test, s) = try await Self.household("r2-linked")
        defer { test.directory.remove() }
        let euros: WalletID = s.ids.next()
        let goal: GoalID = s.ids.next()
        try await test.ledger.execute([
            s.command(.openWallet(walletID: euros, name: "EUR savings", kind: .savings, openingBalance: Scenario.eur(1),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.setExchangeRate(exchangeRate: Self.rate("0.5"), asOf: Scenario.date("2026-01-01"))),
            // CHF 1000.00 + EUR 0.01 at 0.5 = CHF 1000.005: rounded once, half to even, CHF 1000.00.
            s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "House", target: Scenario.chf(1_000_000), walletIDs: [s.joint, euros]))),
        ])
        var progress = try await test.ledger.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit)
        #expect(progress.saved == Scenario.chf(100_000))
        #expect(progress.basisPoints == 1_000)
        #expect(progress.milestones.isEmpty)
        // One income takes it from 10% to 80%: 25, 50 and 75 are reached by that one event, in order.
        let jump = s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 700_000, s.joint, "2026-02-01")))
        let positions = try await test.ledger.execute(jump)
        progress = try await test.ledger.goal(goal, on: Scenario.date("2026-02-28"), visibleTo: .audit)
        #expect(progress.milestones.map(\.percent) == [25, 50, 75])
        #expect(Set(progress.milestones.map(\.sequenceNumber)) == [positions[0].sequenceNumber])
        #expect(progress.milestones.first?.recordedAt == jump.recordedAt)
        #expect(await test.ledger.goalMilestones(visibleTo: .audit).map(\.percent) == [25, 50, 75])
        try await test.ledger.close()
    }

    @Test("R2: a goal reached and left again keeps its 100% milestone once; reaching it again adds nothing; a replay gives the same milestones")
    func reachedAndLeftAgain() async throws {
        var (test, s) = try await Self.household("r2-left")
        defer { test.directory.remove() }
        let goal: GoalID = s.ids.next()
        try await test.ledger.execute([
            s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Buffer", target: Scenario.chf(150_000), walletIDs: [s.joint]))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 60_000, s.joint, "2026-01-10"))),  // 1600 of 1500
        ])
        let reached = try await test.ledger.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit)
        #expect(reached.isReached && reached.milestones.map(\.percent) == [25, 50, 75, 100])
        #expect(reached.estimatedFinish == nil && reached.remaining == Scenario.chf(0))
        try await test.ledger.execute([
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 100_000, "2026-01-20"))),  // 600 of 1500: 40%
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 100_000, s.joint, "2026-01-25"))),  // back to 1600
        ])
        let again = try await test.ledger.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit)
        #expect(again.milestones.map(\.percent) == [25, 50, 75, 100], "no milestone is reached twice")
        #expect(again.milestones == reached.milestones)
        let directory = test.directory.appending("ledger")
        try await test.ledger.close()
        let reopened = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        #expect(try await reopened.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit).milestones == reached.milestones)
        // A fold of the journal from the first event gives the same milestones (G3).
        var folded = Projections()
        for committed in try await reopened.events(from: 1, through: await reopened.lastSequenceNumber) {
            folded.apply(committed.event, sequenceNumber: committed.sequenceNumber)
        }
        #expect(folded.goals.milestones == reached.milestones)
        try await reopened.close()
    }

    @Test("R2: a goal tracked by hand follows its latest amount; the finish estimate is the pace of the last 90 days, none when the amount did not grow")
    func manualGoalAndEstimate() async throws {
        var (test, s) = try await Self.household("r2-manual")
        defer { test.directory.remove() }
        let goal: GoalID = s.ids.next()
        try await test.ledger.execute([
            s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Bike", target: Scenario.chf(100_000), targetDate: Scenario.date("2026-12-31")))),
            s.command(.setGoalAmount(goalID: goal, date: Scenario.date("2026-01-01"), amount: Scenario.chf(0))),
            s.command(.setGoalAmount(goalID: goal, date: Scenario.date("2026-03-01"), amount: Scenario.chf(45_000))),
        ])
        // 2026-03-01 is 59 days after 2026-01-01; on 2026-04-01 the window starts 2026-01-01 (amount 0).
        let progress = try await test.ledger.goal(goal, on: Scenario.date("2026-04-01"), visibleTo: .audit)
        #expect(progress.saved == Scenario.chf(45_000) && progress.basisPoints == 4_500)
        #expect(progress.changeOver90Days == Scenario.chf(45_000))
        // 550.00 left at 450.00 per 90 days: ceil(55000 * 90 / 45000) = 110 days.
        #expect(progress.estimatedFinish == Scenario.date("2026-07-20"))
        #expect(progress.milestones.map(\.percent) == [25])
        // Earlier dates see earlier amounts; no growth in the window: no estimate.
        #expect(try await test.ledger.goal(goal, on: Scenario.date("2026-02-01"), visibleTo: .audit).saved == Scenario.chf(0))
        let flat = try await test.ledger.goal(goal, on: Scenario.date("2026-08-01"), visibleTo: .audit)
        #expect(flat.changeOver90Days == Scenario.chf(0) && flat.estimatedFinish == nil)
        await expectRejection(test.ledger, s.command(.setGoalAmount(goalID: goal, date: Scenario.date("2026-03-02"), amount: Scenario.eur(1))),
                              code: "goalInvalid", rule: "R2")
        try await test.ledger.close()
    }

    @Test("R2: rejections name the rule: a zero target, a wallet linked twice, an amount for a linked goal, an unknown or deleted goal")
    func goalRejections() async throws {
        var (test, s) = try await Self.household("r2-rejections")
        defer { test.directory.remove() }
        let goal: GoalID = s.ids.next()
        await expectRejection(test.ledger, s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Zero", target: Scenario.chf(0)))),
                              code: "goalInvalid", rule: "R2")
        await expectRejection(test.ledger, s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Twice", target: Scenario.chf(1), walletIDs: [s.joint, s.joint]))),
                              code: "goalInvalid", rule: "R2")
        await expectRejection(test.ledger, s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Nowhere", target: Scenario.chf(1), walletIDs: [s.ids.next()]))),
                              code: "unknownWallet", rule: "W1")
        try await test.ledger.execute(s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Linked", target: Scenario.chf(1), walletIDs: [s.joint]))))
        await expectRejection(test.ledger, s.command(.setGoalAmount(goalID: goal, date: Scenario.date("2026-01-02"), amount: Scenario.chf(1))),
                              code: "goalInvalid", rule: "R2")
        await expectRejection(test.ledger, s.command(.deleteGoal(goalID: s.ids.next())), code: "unknownGoal", rule: "R2")
        try await test.ledger.execute(s.command(.deleteGoal(goalID: goal)))
        await expectRejection(test.ledger, s.command(.updateGoal(goalID: goal, goal: GoalDefinition(name: "Back", target: Scenario.chf(2)))),
                              code: "unknownGoal", rule: "R2")
        try await test.ledger.close()
    }

    @Test("T5/R2: undoing a goal's deletion restores it with its milestones; undoing an edit puts the definition back; undoing an amount puts the date's earlier amount back")
    func goalUndo() async throws {
        var (test, s) = try await Self.household("r2-undo")
        defer { test.directory.remove() }
        let goal: GoalID = s.ids.next()
        let first = s.command(.setGoalAmount(goalID: goal, date: Scenario.date("2026-01-10"), amount: Scenario.chf(30_000)))
        let second = s.command(.setGoalAmount(goalID: goal, date: Scenario.date("2026-01-10"), amount: Scenario.chf(60_000)))
        try await test.ledger.execute([
            s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Trip", target: Scenario.chf(100_000)))), first, second,
        ])
        try await test.ledger.execute(s.command(.undo(targetCommandID: second.commandID)))
        var progress = try await test.ledger.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit)
        #expect(progress.saved == Scenario.chf(30_000))
        #expect(progress.milestones.map(\.percent) == [25, 50], "milestones reached stay reached")
        let edit = s.command(.updateGoal(goalID: goal, goal: GoalDefinition(name: "Long trip", target: Scenario.chf(200_000))))
        try await test.ledger.execute(edit)
        #expect(try await test.ledger.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit).basisPoints == 1_500)
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        progress = try await test.ledger.goal(goal, on: Scenario.date("2026-01-31"), visibleTo: .audit)
        #expect(progress.goal.name == "Trip" && progress.basisPoints == 3_000)
        let delete = s.command(.deleteGoal(goalID: goal))
        try await test.ledger.execute(delete)
        #expect(try await test.ledger.goals(on: Scenario.date("2026-01-31"), visibleTo: .audit).isEmpty)
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        let restored = try await test.ledger.goals(on: Scenario.date("2026-01-31"), visibleTo: .audit)
        #expect(restored.map(\.goalID) == [goal] && restored.first?.milestones.map(\.percent) == [25, 50])
        try await test.ledger.close()
    }

    @Test("T5/R2: undo keeps one source of progress: an amount removed before wallets were linked cannot come back by undo; a goal tracked by hand keeps its amounts' currency")
    func goalUndoKeepsOneSource() async throws {
        var (test, s) = try await Self.household("r2-source")
        defer { test.directory.remove() }
        let goal: GoalID = s.ids.next()
        let day = Scenario.date("2026-01-10")
        try await test.ledger.execute([
            s.command(.createGoal(goalID: goal, goal: GoalDefinition(name: "Car", target: Scenario.chf(100_000)))),
            s.command(.setGoalAmount(goalID: goal, date: day, amount: Scenario.chf(10_000))),
        ])
        await expectRejection(test.ledger, s.command(.updateGoal(goalID: goal, goal: GoalDefinition(name: "Car", target: Scenario.eur(100_000)))),
                              code: "goalInvalid", rule: "R2")
        let removal = s.command(.setGoalAmount(goalID: goal, date: day, amount: nil))
        try await test.ledger.execute([
            removal, s.command(.updateGoal(goalID: goal, goal: GoalDefinition(name: "Car", target: Scenario.chf(100_000), walletIDs: [s.joint]))),
        ])
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: removal.commandID)), code: "undoBlocked", rule: "T5")
        try await test.ledger.close()
    }

    // MARK: R3 scenarios

    @Test("R3: a scenario on a ledger without history projects from a flat zero baseline: monthly deltas add up month by month, a lump sum counts from its month on, the baseline is unchanged")
    func scenarioWithoutHistory() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("r3-empty")
        defer { test.directory.remove() }
        try await test.ledger.execute(s.command(.createHousehold(householdID: s.household, name: "New", baseCurrency: .chf, adminName: "Alice")))
        let scenario: ScenarioID = s.ids.next()
        try await test.ledger.execute([
            s.command(.saveScenario(scenario: ScenarioSaved(
                scenarioID: scenario, name: "Raise", monthlyIncomeDelta: Scenario.chf(50_000), monthlyExpenseDelta: Scenario.chf(20_000),
                lumpSums: [ScenarioLumpSum(date: Scenario.date("2026-04-15"), amount: Scenario.chf(-100_000))]))),
            s.command(.activateScenario(scenarioID: scenario)),
        ])
        let series = try await test.ledger.scenarioSeries(on: Scenario.date("2026-01-20"))
        #expect(series.scenario?.scenarioID == scenario)
        #expect(series.points.count == 12)
        #expect(series.points.first?.month.isoString == "2026-02" && series.points.last?.month.isoString == "2027-01")
        #expect(series.points.allSatisfy { $0.baseline == Scenario.chf(0) }, "the baseline is unchanged")
        // +300.00 a month; the -1000.00 lump sum from April (the third projected month) on.
        #expect(series.points.prefix(4).map(\.scenario.minorUnits) == [30_000, 60_000, -10_000, 20_000])
        #expect(series.points.last?.delta == Scenario.chf(12 * 30_000 - 100_000))
        try await test.ledger.close()
    }

    @Test("R3: one scenario is active at a time; activating another replaces it; deleting the active one leaves the baseline; undo brings it back active; amounts must be in the base currency")
    func oneActiveScenario() async throws {
        var (test, s) = try await Self.household("r3-active")
        defer { test.directory.remove() }
        let first: ScenarioID = s.ids.next()
        let second: ScenarioID = s.ids.next()
        func save(_ id: ScenarioID, _ name: String, _ delta: Int64) -> Command {
            s.command(.saveScenario(scenario: ScenarioSaved(scenarioID: id, name: name, monthlyIncomeDelta: Scenario.chf(delta),
                                                  monthlyExpenseDelta: Scenario.chf(0), lumpSums: [])))
        }
        try await test.ledger.execute([save(first, "A", 10_000), save(second, "B", 20_000), s.command(.activateScenario(scenarioID: first))])
        #expect(await test.ledger.scenarios.active == first)
        try await test.ledger.execute(s.command(.activateScenario(scenarioID: second)))
        #expect(await test.ledger.scenarios.active == second)
        let baseline = try await test.ledger.scenarioSeries(on: Scenario.date("2026-01-31")).points.map(\.baseline)
        let delete = s.command(.deleteScenario(scenarioID: second))
        try await test.ledger.execute(delete)
        #expect(await test.ledger.scenarios.active == nil)
        let alone = try await test.ledger.scenarioSeries(on: Scenario.date("2026-01-31"))
        #expect(alone.scenario == nil && alone.points.allSatisfy { $0.delta.minorUnits == 0 })
        #expect(alone.points.map(\.baseline) == baseline, "the baseline does not depend on scenarios")
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        #expect(await test.ledger.scenarios.active == second)
        // Undoing an activation activates the one before: refused once that one is deleted.
        let third: ScenarioID = s.ids.next()
        let activation = s.command(.activateScenario(scenarioID: third))
        try await test.ledger.execute([save(third, "C", 30_000), activation, s.command(.deleteScenario(scenarioID: second))])
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: activation.commandID)), code: "undoBlocked", rule: "T5")
        #expect(await test.ledger.scenarios.active == third)
        #expect(await test.ledger.scenarios.saved.map(\.name) == ["A", "C"])
        await expectRejection(test.ledger, s.command(.saveScenario(scenario: ScenarioSaved(
            scenarioID: s.ids.next(), name: "Euro", monthlyIncomeDelta: Scenario.eur(100), monthlyExpenseDelta: Scenario.chf(0), lumpSums: []))),
            code: "scenarioInvalid", rule: "R3")
        await expectRejection(test.ledger, s.command(.activateScenario(scenarioID: s.ids.next())), code: "unknownScenario", rule: "R3")
        try await test.ledger.close()
    }

    // MARK: R6 alerts

    @Test("R6: a budget crossing 80% and 100% is reported once per threshold with a stable id; thresholds are configurable; settings out of range are refused")
    func budgetAlerts() async throws {
        var (test, s) = try await Self.household("r6-budget", durability: .synchronous)
        defer { test.directory.remove() }
        s.advance(to: "2026-01-02")
        try await test.ledger.execute([
            s.command(.setPayday(day: 1)),
            s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(10_000), fromPeriod: nil)),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 7_000, "2026-01-05"))),
        ])
        let day = Scenario.date("2026-01-10")
        #expect(try await test.ledger.alerts(on: day, visibleTo: .audit).filter(Self.isBudget).isEmpty, "70% crosses nothing")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 1_500, "2026-01-06"))))
        let at85 = try await test.ledger.alerts(on: day, visibleTo: .audit).filter(Self.isBudget)
        #expect(at85.map(\.id) == ["budget/\(s.groceries)/2026-01-01/80"])
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 2_000, "2026-01-07"))))
        let at105 = try await test.ledger.alerts(on: day, visibleTo: .audit).filter(Self.isBudget)
        #expect(at105.map(\.id) == at85.map(\.id) + ["budget/\(s.groceries)/2026-01-01/100"], "the 80% alert keeps its id")
        try await test.ledger.execute(s.command(.setAlertSettings(settings: AlertSettingsSet(budgetThresholds: [50], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil))))
        #expect(try await test.ledger.alerts(on: day, visibleTo: .audit).map(\.id) == ["budget/\(s.groceries)/2026-01-01/50"])
        await expectRejection(test.ledger, s.command(.setAlertSettings(settings: AlertSettingsSet(budgetThresholds: [100, 80], upcomingDays: 7, staleBalanceDays: 30, largeTransaction: nil))),
                              code: "alertSettingsInvalid", rule: "R6")
        await expectRejection(test.ledger, s.command(.setAlertSettings(settings: AlertSettingsSet(budgetThresholds: [80], upcomingDays: 400, staleBalanceDays: 30, largeTransaction: nil))),
                              code: "alertSettingsInvalid", rule: "R6")
        try await test.ledger.close()
    }

    static func isBudget(_ alert: LedgerAlert) -> Bool {
        if case .budget = alert.kind { true } else { false }
    }

    @Test("R6: an occurrence due within N days, a transaction of at least the set amount and a balance point older than N days are reported; a posted occurrence is not")
    func otherAlerts() async throws {
        var (test, s) = try await Self.household("r6-other", durability: .synchronous)
        defer { test.directory.remove() }
        let template: TemplateID = s.ids.next()
        let broker: WalletID = s.ids.next()
        let large: TransactionID = s.ids.next()
        var rent = Self.expense(s, 150_000, "2026-01-28")
        rent.note = "Rent"
        try await test.ledger.execute([
            s.command(.setAlertSettings(settings: AlertSettingsSet(budgetThresholds: [80, 100], upcomingDays: 5, staleBalanceDays: 30, largeTransaction: Scenario.chf(50_000)))),
            s.command(.createTemplate(templateID: template, frequency: .monthly, entry: rent)),
            s.command(.openWallet(walletID: broker, name: "Broker", kind: .investment, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-01-01"), owner: nil)),
            s.command(.recordBalance(walletID: broker, date: Scenario.date("2026-01-02"), balance: Scenario.chf(500_000))),
            s.command(.recordTransaction(transactionID: large, entry: Self.expense(s, 60_000, "2026-01-20"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 49_999, "2026-01-21"))),
        ])
        let alerts = try await test.ledger.alerts(on: Scenario.date("2026-02-24"), visibleTo: .audit)
        let ids = Set(alerts.map(\.id))
        #expect(ids.contains("upcoming/\(template)/2026-02-28"), "\(ids)")
        #expect(!ids.contains("upcoming/\(template)/2026-03-28"), "beyond 5 days")
        #expect(ids.contains("stale/\(broker)/2026-01-02"))
        // The pay period containing 2026-02-24 (no payday: the calendar month) holds no large transaction.
        #expect(!ids.contains { $0.hasPrefix("large/") })
        let january = Set(try await test.ledger.alerts(on: Scenario.date("2026-01-25"), visibleTo: .audit).map(\.id))
        #expect(january.contains("large/\(large)") && january.filter { $0.hasPrefix("large/") }.count == 1, "49.999 is below the amount")
        #expect(!january.contains { $0.hasPrefix("stale/") }, "23 days is not stale yet")
        try await test.ledger.execute(s.command(.postDueOccurrences(through: Scenario.date("2026-02-28"))))
        let posted = Set(try await test.ledger.alerts(on: Scenario.date("2026-02-24"), visibleTo: .audit).map(\.id))
        #expect(!posted.contains("upcoming/\(template)/2026-02-28"), "a posted occurrence is not upcoming")
        try await test.ledger.close()
    }

    @Test("R6: alerts are observable: the sequence yields the current alerts, then a new list when a commit crosses a threshold")
    func alertsAreObservable() async throws {
        var (test, s) = try await Self.household("r6-observe", durability: .synchronous)
        defer { test.directory.remove() }
        s.advance(to: "2026-01-02")
        try await test.ledger.execute([
            s.command(.setPayday(day: 1)),
            s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(10_000), fromPeriod: nil)),
        ])
        let day = Scenario.date("2026-01-10")
        let stream = await test.ledger.observePlanning { view throws(LedgerError) in try view.alerts(on: day, visibleTo: .audit).map(\.id) }
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == [])
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.expense(s, 9_000, "2026-01-05"))))
        #expect(try await iterator.next() == ["budget/\(s.groceries)/2026-01-01/80"])
        try await test.ledger.close()
    }
}

/// R4 analytics through the read-side store: per month, week and range, per category, period
/// over period, the savings rate, and G2 conversion.
@Suite("Analytics (R4)")
struct AnalyticsTests {
    @Test("R4: per month: income, expense, net, the savings rate in basis points and each category beside the month before; deleted transactions count nowhere; other currencies convert at the month end (G2)")
    func monthlyAnalytics() async throws {
        var (test, s) = try await PlanningTests.household("r4-month", durability: .synchronous)
        defer { test.directory.remove() }
        let deleted: TransactionID = s.ids.next()
        try await test.ledger.execute([
            s.command(.setExchangeRate(exchangeRate: PlanningTests.rate("1.5"), asOf: Scenario.date("2026-01-01"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.income(s, 300_000, s.joint, "2026-01-25"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 100_000, "2026-01-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.income(s, 400_000, s.joint, "2026-02-25"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 50_000, "2026-02-03"))),
            // EUR 10.01 at 1.5 = CHF 15.015: rounded once, half to even, CHF 15.02.
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
                kind: .expense, amount: Scenario.eur(1_001), walletID: s.euroCard, categoryID: s.groceries,
                date: Scenario.date("2026-02-04"), payer: s.alice))),
            s.command(.recordTransaction(transactionID: deleted, entry: PlanningTests.expense(s, 99_900, "2026-02-05"))),
            s.command(.deleteTransaction(transactionID: deleted)),
        ])
        let report = try await test.ledger.analytics(AnalyticsQuery(span: .month, from: Scenario.date("2026-01-01"), through: Scenario.date("2026-02-28"), filter: TransactionQuery(visibleTo: .audit)))
        #expect(report.currency == .chf && report.missingRates.isEmpty)
        #expect(report.periods.map(\.period.start.isoString) == ["2026-01-01", "2026-02-01"])
        let january = try #require(report.periods.first)
        #expect(january.totals.income == Scenario.chf(300_000) && january.totals.expense == Scenario.chf(100_000))
        #expect(january.totals.savingsRateBasisPoints == 6_667, "(3000 - 1000) / 3000 = 66.666...%, half to even")
        #expect(january.previous.income == Scenario.chf(0) && january.previous.savingsRateBasisPoints == nil)
        let february = try #require(report.periods.last)
        #expect(february.totals.expense == Scenario.chf(51_502), "500.00 + EUR 10.01 at 1.5 (15.015 -> 15.02); the deleted 999.00 counts nowhere")
        #expect(february.totals.net == Scenario.chf(348_498))
        #expect(february.previous == january.totals, "period over period: February beside January")
        let groceries = try #require(february.categories.first { $0.categoryID == s.groceries })
        #expect(groceries.amount == Scenario.chf(51_502) && groceries.previous == Scenario.chf(100_000))
        try await test.ledger.close()
    }

    @Test("R4: weeks are ISO weeks (Monday first), cut to the range; one range compares with the range of the same length before it; a range that ends before it starts is refused")
    func weeksAndRanges() async throws {
        var (test, s) = try await PlanningTests.household("r4-weeks", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute([
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 1_000, "2026-01-04"))),  // Sunday
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 2_000, "2026-01-05"))),  // Monday
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 4_000, "2026-01-12"))),
        ])
        let weeks = try await test.ledger.analytics(AnalyticsQuery(span: .week, from: Scenario.date("2026-01-01"), through: Scenario.date("2026-01-14"), filter: TransactionQuery(visibleTo: .audit)))
        #expect(weeks.periods.map { "\($0.period.start.isoString)/\($0.period.end.isoString)" }
                == ["2026-01-01/2026-01-04", "2026-01-05/2026-01-11", "2026-01-12/2026-01-14"])
        #expect(weeks.periods.map(\.totals.expense.minorUnits) == [1_000, 2_000, 4_000])
        #expect(weeks.periods.map(\.previous.expense.minorUnits) == [0, 1_000, 2_000])
        let range = try await test.ledger.analytics(AnalyticsQuery(span: .range, from: Scenario.date("2026-01-05"), through: Scenario.date("2026-01-12"), filter: TransactionQuery(visibleTo: .audit)))
        #expect(range.periods.count == 1 && range.periods.first?.totals.expense == Scenario.chf(6_000))
        #expect(range.periods.first?.previous.expense == Scenario.chf(1_000), "the 8 days before: 2025-12-28...2026-01-04")
        await #expect(throws: LedgerError.self) {
            try await test.ledger.analytics(AnalyticsQuery(span: .month, from: Scenario.date("2026-02-01"), through: Scenario.date("2026-01-01"), filter: TransactionQuery(visibleTo: .audit)))
        }
        try await test.ledger.close()
    }
}
