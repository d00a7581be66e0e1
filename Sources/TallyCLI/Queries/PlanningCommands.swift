import ArgumentParser
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// The planning view of a ledger directory for `tally goals`, `scenarios` and `alerts`: its
/// replayed history, and the read-side store when `withStore` (large-transaction alerts).
struct PlanningOptions: ParsableArguments {
    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @OptionGroup var on: OnDateOption
    @Flag(help: "Print JSON.") var json = false

    /// Runs `body` with the planning view and the history's names.
    func withView<Value>(storeNeeded: Bool = false, _ body: (PlanningView, LedgerHistory) throws -> Value) async throws -> Value {
        let path = try location.path()
        let encryption = try key.encryption()
        guard storeNeeded else {
            let history = try LedgerAccess.history(at: path, encryption: encryption, allowDamaged: damage.allowDamaged)
            return try answer(path) { () throws in try body(PlanningView(state: history.state, models: history.readModels, store: nil), history) }
        }
        // The store and the history as of the same sequence number.
        return try StoreAccess.read(at: path, encryption: encryption) { store, history in
            try answer(path) { () throws in try body(PlanningView(state: history.state, models: history.readModels, store: store), history) }
        }
    }

    private func answer<Value>(_ path: String, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as LedgerError {
            throw CLIError.ledger(error, at: path)
        }
    }
}

/// `tally goals`: savings goals with progress, milestones and the finish estimate (R2).
struct GoalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals", abstract: "Savings goals: progress, milestones and the 90-day finish estimate (R2).")

    @OptionGroup var options: PlanningOptions
    @OptionGroup var viewer: ViewerOption

    func run() async throws {
        let date = try options.on.date
        let text = try await options.withView { view, history in
            let goals = try view.goals(on: date, visibleTo: try viewer.viewer(in: history))
            if options.json { return CanonicalJSON.array(goals.map { Self.json($0) }).text }
            guard !goals.isEmpty else { return "No goals yet." }
            var table = TextTable([("Goal", .left), ("Saved", .right), ("Target", .right), ("Progress", .right), ("Milestones", .left), ("Estimate", .left)])
            for goal in goals {
                table.add([
                    goal.goal.name, goal.saved.formatted(), goal.goal.target.formatted(), Self.percent(goal.basisPoints),
                    goal.milestones.map { "\($0.percent)%" }.joined(separator: " "),
                    goal.isReached ? "reached" : goal.estimatedFinish?.isoString ?? "insufficient data",
                ])
            }
            var lines = ["Goals on \(date.isoString)", table.render()]
            for goal in goals where !goal.missingRates.isEmpty {
                lines.append("\(goal.goal.name): missing exchange rates (left out): " + goal.missingRates.map(\.code).joined(separator: ", "))
            }
            for goal in goals where goal.goal.isLinked {
                lines.append("\(goal.goal.name) follows " + goal.goal.walletIDs.map(history.walletName).joined(separator: ", "))
            }
            return lines.joined(separator: "\n")
        }
        try Terminal.line(text)
    }

    static func percent(_ basisPoints: Int64) -> String { "\(basisPoints / 100).\(String(format: "%02d", basisPoints % 100))%" }

    static func json(_ goal: GoalProgress) -> CanonicalJSON {
        .object([
            "goalID": CanonicalJSON(goal.goalID), "name": .string(goal.goal.name), "target": CanonicalJSON(goal.goal.target),
            "targetDate": CanonicalJSON(goal.goal.targetDate), "walletIDs": .array(goal.goal.walletIDs.map(CanonicalJSON.init)),
            "saved": CanonicalJSON(goal.saved), "basisPoints": .integer(goal.basisPoints), "remaining": CanonicalJSON(goal.remaining),
            "changeOver90Days": CanonicalJSON(goal.changeOver90Days), "estimatedFinish": CanonicalJSON(goal.estimatedFinish),
            "isReached": .bool(goal.isReached), "missingRates": .array(goal.missingRates.map { .string($0.code) }),
            "milestones": .array(goal.milestones.map { milestone in
                .object([
                    "percent": .integer(milestone.percent), "sequenceNumber": .integer(Int64(clamping: milestone.sequenceNumber)),
                    "recordedAt": .string(milestone.recordedAt.iso8601),
                ])
            }),
        ])
    }
}

/// `tally scenarios`: the saved scenarios and 12 months of baseline and scenario (R3).
struct ScenariosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios", abstract: "Saved scenarios, and the baseline beside one for 12 months (R3).",
        discussion: "Without --scenario the active scenario is shown (the baseline alone when none is active).")

    @OptionGroup var options: PlanningOptions
    @Option(help: ArgumentHelp("The scenario to project; default the active one.", valueName: "ID")) var scenario: String?

    func run() async throws {
        let date = try options.on.date
        let id: ScenarioID? = try scenario.map { try Identifiers.parse($0, option: "--scenario") }
        let text = try await options.withView(storeNeeded: true) { view, _ in
            let series = try view.scenarioSeries(id, on: date)
            if options.json { return Self.json(series, saved: view.scenarios, active: view.activeScenarioID).text }
            var lines = view.scenarios.map { saved in
                "\(saved.scenarioID == view.activeScenarioID ? "*" : " ") \(saved.name) (\(saved.scenarioID)): income \(saved.monthlyIncomeDelta.formatted())/month, expenses \(saved.monthlyExpenseDelta.formatted())/month"
                    + (saved.savingsRateDeltaBasisPoints.map { ", savings rate \($0 < 0 ? "" : "+")\(AnalyticsCommand.rate($0))" } ?? "")
                    + ", \(saved.lumpSums.count) lump sum(s)"
            }
            if lines.isEmpty { lines = ["No scenarios saved."] }
            var table = TextTable([("Month", .left), ("Baseline", .right), ("Scenario", .right), ("Difference", .right)])
            for point in series.points {
                table.add([point.month.isoString, point.baseline.formatted(), point.scenario.formatted(), point.delta.formatted()])
            }
            lines += ["", series.scenario.map { "Projection with \($0.name)" } ?? "Projection (baseline, no active scenario)", table.render()]
            if !series.missingRates.isEmpty { lines.append("Missing exchange rates (left out): " + series.missingRates.map(\.code).joined(separator: ", ")) }
            if !series.pastLumpSums.isEmpty { lines.append("\(series.pastLumpSums.count) lump sum(s) dated before the projection are left out") }
            if let rate = series.savingsRate {
                lines.append("Savings rate \(AnalyticsCommand.rate(rate.baselineRateBasisPoints)) -> \(AnalyticsCommand.rate(rate.scenarioRateBasisPoints)): \(rate.monthlyAmount.formatted())/month more saved"
                    + " (reference \(rate.referenceMonths.lowerBound.isoString)...\(rate.referenceMonths.upperBound.isoString): income \(rate.referenceIncome.formatted()), expenses \(rate.referenceExpense.formatted()) a month)"
                    + (rate.isLimited ? "; limited by the guard rails (savings rate within 0...100%, expenses not below zero)" : ""))
            }
            return lines.joined(separator: "\n")
        }
        try Terminal.line(text)
    }

    static func json(_ series: ScenarioSeries, saved: [ScenarioSaved], active: ScenarioID?) -> CanonicalJSON {
        .object([
            "active": CanonicalJSON(active),
            "scenarios": .array(saved.map { scenario in
                .object([
                    "scenarioID": CanonicalJSON(scenario.scenarioID), "name": .string(scenario.name),
                    "monthlyIncomeDelta": CanonicalJSON(scenario.monthlyIncomeDelta), "monthlyExpenseDelta": CanonicalJSON(scenario.monthlyExpenseDelta),
                    "lumpSums": .array(scenario.lumpSums.map { .object(["date": CanonicalJSON($0.date), "amount": CanonicalJSON($0.amount)]) }),
                    "savingsRateDeltaBasisPoints": scenario.savingsRateDeltaBasisPoints.map(CanonicalJSON.integer) ?? .null,
                ])
            }),
            "projected": CanonicalJSON(series.scenario?.scenarioID),
            "points": .array(series.points.map { point in
                .object([
                    "month": .string(point.month.isoString), "baseline": CanonicalJSON(point.baseline),
                    "scenario": CanonicalJSON(point.scenario), "delta": CanonicalJSON(point.delta),
                ])
            }),
            "missingRates": .array(series.missingRates.map { .string($0.code) }),
            "pastLumpSums": .integer(Int64(series.pastLumpSums.count)),
            "savingsRate": series.savingsRate.map { rate in
                .object([
                    "deltaBasisPoints": .integer(rate.deltaBasisPoints), "referenceFrom": CanonicalJSON(rate.referenceMonths.lowerBound),
                    "referenceThrough": CanonicalJSON(rate.referenceMonths.upperBound), "referenceIncome": CanonicalJSON(rate.referenceIncome),
                    "referenceExpense": CanonicalJSON(rate.referenceExpense), "monthlyAmount": CanonicalJSON(rate.monthlyAmount),
                    "isLimited": .bool(rate.isLimited),
                    "baselineRateBasisPoints": rate.baselineRateBasisPoints.map(CanonicalJSON.integer) ?? .null,
                    "scenarioRateBasisPoints": rate.scenarioRateBasisPoints.map(CanonicalJSON.integer) ?? .null,
                ])
            } ?? .null,
        ])
    }
}

/// `tally alerts`: the alerts in force on a date (R6).
struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts", abstract: "Budget thresholds crossed, upcoming recurring items, price increases, large transactions, stale balances, settle-up reminders, spending spikes, wallet balances past their alert (R6).",
        discussion: "Each alert has a stable id: the same crossing keeps it, so a notifier reports each id once.")

    @OptionGroup var options: PlanningOptions
    @OptionGroup var viewer: ViewerOption

    func run() async throws {
        let date = try options.on.date
        let text = try await options.withView(storeNeeded: true) { view, history in
            let alerts = try view.alerts(on: date, visibleTo: try viewer.viewer(in: history))
            if options.json { return CanonicalJSON.array(alerts.map(Self.json)).text }
            guard !alerts.isEmpty else { return "No alerts on \(date.isoString)." }
            return (["Alerts on \(date.isoString)"] + alerts.map { Self.text($0, history) }).joined(separator: "\n")
        }
        try Terminal.line(text)
    }

    static func text(_ alert: LedgerAlert, _ history: LedgerHistory) -> String {
        switch alert.kind {
        case .budget(let category, let period, let threshold, let spent, let allocated):
            "budget   \(history.categoryName(category)): \(spent.formatted()) of \(allocated.formatted()) spent, \(threshold)% reached (period \(period.start.isoString)...\(period.end.isoString))"
        case .upcoming(let template, let date, let amount):
            "upcoming \(history.state.templates[template]?.latestDetails.note?.text ?? template.description): \(amount.formatted()) on \(date.isoString)"
        case .largeTransaction(let transaction, let date, let amount):
            "large    \(amount.formatted()) on \(date.isoString) (\(transaction))"
        case .staleBalance(let wallet, let lastPointOn, let days):
            "stale    \(history.walletName(wallet)): last balance \(lastPointOn.isoString), \(days) days ago"
        case .priceIncrease(let template, let effectiveFrom, let previous, let price):
            "price    \(history.state.templates[template]?.latestDetails.note?.text ?? template.description): \(previous.formatted()) to \(price.formatted()) from \(effectiveFrom.isoString)"
        case .settleUp(let person, let other, let amount):
            amount.isPositive
                ? "settle   \(history.personName(other)) owes \(history.personName(person)) \(amount.formatted())"
                : "settle   \(history.personName(person)) owes \(history.personName(other)) \((try? amount.negated())?.formatted() ?? amount.formatted())"
        case .spendingSpike(let category, let month, let spent, let average):
            "spike    \(history.categoryName(category)): \(spent.formatted()) spent in \(month.isoString), against \(average.formatted()) a month over the three months before"
        case .balanceBelow(let wallet, let balance, let threshold):
            "balance  \(history.walletName(wallet)): \(balance.formatted()), below \(threshold.formatted())"
        case .balanceAbove(let wallet, let balance, let threshold):
            "balance  \(history.walletName(wallet)): \(balance.formatted()), above \(threshold.formatted())"
        }
    }

    static func json(_ alert: LedgerAlert) -> CanonicalJSON {
        var fields: [String: CanonicalJSON] = ["id": .string(alert.id)]
        switch alert.kind {
        case .budget(let category, let period, let threshold, let spent, let allocated):
            fields.merge(["kind": .string("budget"), "categoryID": CanonicalJSON(category), "periodStart": CanonicalJSON(period.start),
                          "periodEnd": CanonicalJSON(period.end), "thresholdPercent": .integer(threshold), "spent": CanonicalJSON(spent),
                          "allocated": CanonicalJSON(allocated)]) { $1 }
        case .upcoming(let template, let date, let amount):
            fields.merge(["kind": .string("upcoming"), "templateID": CanonicalJSON(template), "date": CanonicalJSON(date), "amount": CanonicalJSON(amount)]) { $1 }
        case .largeTransaction(let transaction, let date, let amount):
            fields.merge(["kind": .string("largeTransaction"), "transactionID": CanonicalJSON(transaction), "date": CanonicalJSON(date), "amount": CanonicalJSON(amount)]) { $1 }
        case .staleBalance(let wallet, let lastPointOn, let days):
            fields.merge(["kind": .string("staleBalance"), "walletID": CanonicalJSON(wallet), "lastPointOn": CanonicalJSON(lastPointOn), "days": .integer(days)]) { $1 }
        case .priceIncrease(let template, let effectiveFrom, let previous, let price):
            fields.merge(["kind": .string("priceIncrease"), "templateID": CanonicalJSON(template), "effectiveFrom": CanonicalJSON(effectiveFrom),
                          "previous": CanonicalJSON(previous), "price": CanonicalJSON(price)]) { $1 }
        case .settleUp(let person, let other, let amount):
            fields.merge(["kind": .string("settleUp"), "person": CanonicalJSON(person), "other": CanonicalJSON(other), "amount": CanonicalJSON(amount)]) { $1 }
        case .spendingSpike(let category, let month, let spent, let average):
            fields.merge(["kind": .string("spendingSpike"), "categoryID": CanonicalJSON(category), "month": .string(month.isoString),
                          "spent": CanonicalJSON(spent), "trailingAverage": CanonicalJSON(average)]) { $1 }
        case .balanceBelow(let wallet, let balance, let threshold):
            fields.merge(["kind": .string("balanceBelow"), "walletID": CanonicalJSON(wallet), "balance": CanonicalJSON(balance), "threshold": CanonicalJSON(threshold)]) { $1 }
        case .balanceAbove(let wallet, let balance, let threshold):
            fields.merge(["kind": .string("balanceAbove"), "walletID": CanonicalJSON(wallet), "balance": CanonicalJSON(balance), "threshold": CanonicalJSON(threshold)]) { $1 }
        }
        return .object(fields)
    }
}
