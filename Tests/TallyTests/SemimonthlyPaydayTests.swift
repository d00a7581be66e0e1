@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Paydays twice a month (seed 000 "Future | Pay frequency": bi-monthly paydays; B1, B6).
@Suite("Twice-a-month paydays")
struct SemimonthlyPaydayTests {
    @Test("B1/Future pay frequency: setPayday(day: 1, secondDay: 15) takes effect when the open period ends; periods run 1st-14th and 15th-month end; closed periods stay")
    func twiceAMonthAfterTheOpenPeriod() async throws {
        var (test, s) = try await EditingTests.household()  // monthly from the 1st: January is open
        func period(_ date: String) async -> PayPeriod { await test.ledger.readModels.budgets.period(containing: Scenario.date(date)) }
        let before = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(s.command(.setPayday(day: 1, secondDay: 15)))
        let payloads = try await EditingTests.payloads(test.ledger, after: before)
        #expect(payloads == [.paydaySet(PaydaySet(day: 1, effectiveFrom: Scenario.date("2026-02-01"), secondDay: 15))])
        #expect(await period("2026-01-20") == PayPeriod(start: Scenario.date("2026-01-01"), end: Scenario.date("2026-01-31")))
        #expect(await period("2026-02-10") == PayPeriod(start: Scenario.date("2026-02-01"), end: Scenario.date("2026-02-14")))
        #expect(await period("2026-02-20") == PayPeriod(start: Scenario.date("2026-02-15"), end: Scenario.date("2026-02-28")))
        s.advance(to: "2026-02-16")
        try await test.ledger.execute(s.command(.closePeriod))
        #expect(await test.ledger.readModels.budgets.closedPeriods.map(\.end) == ["2026-01-31", "2026-02-14"].map(Scenario.date))
        #expect(await test.ledger.state.periods.openStart == Scenario.date("2026-02-15"))
    }

    @Test("B1: twice a month with a day past the month's end: 15 and 31 clamp to Feb 28, then back to the 31st")
    func secondDayClampsToTheMonthEnd() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("semimonthly")
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute(s.command(.setPayday(day: 15, secondDay: 31)))  // recorded 2026-01-05: Dec 31 is the latest payday
        #expect(await test.ledger.state.periods.openStart == Scenario.date("2025-12-31"))
        let budgets = await test.ledger.readModels.budgets
        func period(_ date: String) -> PayPeriod { budgets.period(containing: Scenario.date(date)) }
        #expect(period("2026-01-10") == PayPeriod(start: Scenario.date("2025-12-31"), end: Scenario.date("2026-01-14")))
        #expect(period("2026-02-20") == PayPeriod(start: Scenario.date("2026-02-15"), end: Scenario.date("2026-02-27")))
        #expect(period("2026-03-01") == PayPeriod(start: Scenario.date("2026-02-28"), end: Scenario.date("2026-03-14")))
        #expect(period("2026-03-20") == PayPeriod(start: Scenario.date("2026-03-15"), end: Scenario.date("2026-03-30")))
        #expect(period("2026-03-31") == PayPeriod(start: Scenario.date("2026-03-31"), end: Scenario.date("2026-04-14")))
    }

    @Test("B1: a second payday outside 1...31 or equal to the first is paydayOutOfRange")
    func invalidSecondDayIsRejected() async throws {
        var (test, s) = try await EditingTests.household()
        await expectRejection(test.ledger, s.command(.setPayday(day: 1, secondDay: 32)), code: "paydayOutOfRange", rule: "B1")
        await expectRejection(test.ledger, s.command(.setPayday(day: 15, secondDay: 15)), code: "paydayOutOfRange", rule: "B1")
        await expectRejection(test.ledger, s.command(.setPayday(day: 1, secondDay: 0)), code: "paydayOutOfRange", rule: "B1")
    }
}
