import Tally
import TallyModel
import TallyTestSupport
import Testing

/// The household's first day of the week (Swiff 2.4.1 "first day of week"; B5): `setFirstWeekday`
/// records `FirstWeekdaySet`, and every week the engine computes starts on it: analytics and
/// report-template week spans, B5 weekly allowances and US-038 weekly savings. Monday until set.
@Suite("First day of the week")
struct FirstWeekdayTests {
    static func weeks(_ ledger: Ledger) async throws -> [String] {
        let report = try await ledger.analytics(AnalyticsQuery(
            span: .week, from: Scenario.date("2026-01-01"), through: Scenario.date("2026-01-14"), filter: TransactionQuery(visibleTo: .audit)))
        return report.periods.map { "\($0.period.start.isoString)/\($0.period.end.isoString):\($0.totals.expense.minorUnits):\($0.previous.expense.minorUnits)" }
    }

    @Test("2.4.1, B5, R4, T5: weeks start on Monday until setFirstWeekday; with sunday the analytics weeks, their comparison week and the B5 allowance and savings weeks start on Sunday; undo brings Monday back and every figure with it")
    func weeksFollowTheHouseholdsFirstDay() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("first-weekday", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute([
            s.command(.allocateBudget(categoryID: s.groceries, amount: Scenario.chf(31_000), fromPeriod: Scenario.date("2026-01-01"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 1_000, "2026-01-03"))),  // Saturday
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 2_000, "2026-01-04"))),  // Sunday
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 4_000, "2026-01-11"))),  // Sunday
        ])
        let mondays = ["2026-01-01/2026-01-04:3000:0", "2026-01-05/2026-01-11:4000:3000", "2026-01-12/2026-01-14:0:4000"]
        #expect(try await Self.weeks(test.ledger) == mondays)
        func allowanceWeeks() async throws -> [String] {
            let budgets = await test.ledger.readModels.budgets
            let report = try budgets.budget(for: budgets.period(containing: Scenario.date("2026-01-06")))
            return report.weeklyAllowances.filter { $0.budgetType == .needs }.prefix(3).map { "\($0.weekStart.isoString):\($0.spent.minorUnits)" }
                + report.savings.weeks.prefix(1).map { "savings \($0.weekStart.isoString)" }
        }
        #expect(try await allowanceWeeks() == ["2025-12-29:3000", "2026-01-05:4000", "2026-01-12:0", "savings 2025-12-29"])
        let set = s.command(.setFirstWeekday(firstWeekday: .sunday))
        try await test.ledger.execute(set)
        #expect(try await Self.weeks(test.ledger) == [
            "2026-01-01/2026-01-03:1000:0", "2026-01-04/2026-01-10:2000:1000", "2026-01-11/2026-01-14:4000:2000"])
        #expect(try await allowanceWeeks() == ["2025-12-28:1000", "2026-01-04:2000", "2026-01-11:4000", "savings 2025-12-28"])
        #expect(await test.ledger.readModels.budgets.firstWeekday == .sunday)
        try await test.ledger.close()
        let reopened = try await Ledger.open(at: test.directory.appending("ledger"), options: LedgerOptions(durability: .synchronous))
        #expect(await reopened.readModels.budgets.firstWeekday == .sunday)
        try await reopened.execute(s.command(.undo(targetCommandID: set.commandID)))
        #expect(try await Self.weeks(reopened) == mondays)
        #expect(await reopened.readModels.budgets.firstWeekday == .monday)
        try await reopened.close()
    }

    @Test("2.4.1: startOfWeek(startingOn:) is the latest given weekday on or before the date, the date itself on that weekday")
    func startOfWeek() {
        let wednesday = Scenario.date("2026-01-07")
        #expect(wednesday.startOfWeek(startingOn: .monday) == Scenario.date("2026-01-05"))
        #expect(wednesday.startOfWeek(startingOn: .sunday) == Scenario.date("2026-01-04"))
        #expect(wednesday.startOfWeek(startingOn: .wednesday) == wednesday)
        #expect(wednesday.startOfWeek(startingOn: .thursday) == Scenario.date("2026-01-01"))
        #expect(LocalDate.min.startOfWeek(startingOn: .sunday) == .min)
        #expect(Weekday.allCases.allSatisfy { wednesday.startOfWeek(startingOn: $0).isoWeekday == Int($0.rawValue) })
    }
}
