import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// The engine decides when periods close (B6, `PeriodClosed` events); the budget read model
/// computes period boundaries from `PaydaySet` (B1). They must agree, or snapshots would freeze
/// the wrong dates.
@Suite("Pay periods: engine and read model agree")
struct PeriodAgreementTests {
    @Test("B1/B6: with payday 31 (February clamping) and a payday change inside a period, every PeriodClosed matches the read model's periods")
    func closedPeriodsMatchReadModelPeriods() async throws {
        var scenario = Scenario()
        let test = try await TestLedger.make("periods")
        let ledger = test.ledger
        defer { test.directory.remove() }
        scenario.advance(to: "2026-01-05")
        for command in scenario.setup() { try await ledger.execute(command) }
        try await ledger.execute(scenario.command(.setPayday(day: 31)))
        var changed = false
        for day in stride(from: Int64(0), to: 200, by: 3) {
            let date = try Scenario.date("2026-01-06").adding(days: day)
            scenario.advance(to: date.isoString)
            if !changed && date >= Scenario.date("2026-03-10") {
                try await ledger.execute(scenario.command(.setPayday(day: 15)))
                changed = true
                continue
            }
            var entry = scenario.expense(1_000)
            entry.date = date
            try await ledger.execute(scenario.command(.recordTransaction(scenario.ids.next(), entry)))
        }
        let closed = try await ledger.events().compactMap { committed -> PeriodClosed? in
            if case .periodClosed(let period) = committed.event.payload { return period }
            return nil
        }
        #expect(closed.count >= 5)
        let budgets = await ledger.readModels.budgets
        for period in closed {
            let computed = budgets.period(containing: period.periodStart)
            #expect(computed.start == period.periodStart && computed.end == period.periodEnd,
                    "engine closed \(period.periodStart.isoString)...\(period.periodEnd.isoString), read model has \(computed.start.isoString)...\(computed.end.isoString)")
        }
        #expect(budgets.closedPeriods.map(\.start) == closed.map(\.periodStart))
    }
}
