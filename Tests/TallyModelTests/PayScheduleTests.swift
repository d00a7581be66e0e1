import TallyModel
import Testing

/// ``PaySchedule`` is the one pay-period rule: the engine closes periods with it (B6) and the
/// budget read model reports per period with it (B1).
@Suite("Pay schedule")
struct PayScheduleTests {
    func date(_ text: String) throws -> LocalDate { try LocalDate(iso: text) }
    func period(_ start: String, _ end: String) throws -> PayPeriod { PayPeriod(start: try date(start), end: try date(end)) }
    func schedule(_ rules: [(day: Int, from: String)]) throws -> PaySchedule {
        var schedule = PaySchedule()
        for (index, rule) in rules.enumerated() {
            schedule.add(PaySchedule.Rule(day: rule.day, effectiveFrom: try date(rule.from), sequenceNumber: UInt64(index + 1)))
        }
        return schedule
    }

    @Test("B1: a period runs from a payday to the day before the next; payday 31 is the month's last day in shorter months")
    func periodsFollowThePayday() throws {
        let paydays = try schedule([(31, "2026-01-31")])
        #expect(try paydays.period(containing: date("2026-02-15")) == period("2026-01-31", "2026-02-27"))
        #expect(try paydays.period(containing: date("2026-02-28")) == period("2026-02-28", "2026-03-30"))
        let leap = try schedule([(31, "2024-01-31")])
        #expect(try leap.period(containing: date("2024-02-29")) == period("2024-02-29", "2024-03-30"))
    }

    @Test("B1: a payday change inside a running period takes effect when that period ends")
    func changeWaitsForThePeriodEnd() throws {
        let paydays = try schedule([(25, "2025-12-25"), (31, "2026-01-25")])
        #expect(try paydays.period(containing: date("2026-01-10")) == period("2025-12-25", "2026-01-24"))
        #expect(try paydays.period(containing: date("2026-01-27")) == period("2026-01-25", "2026-01-30"))
        #expect(try paydays.period(containing: date("2026-02-10")) == period("2026-01-31", "2026-02-27"))
        let midPeriod = try schedule([(1, "2026-01-01"), (15, "2026-03-10")])
        #expect(try midPeriod.period(containing: date("2026-03-20")) == period("2026-03-01", "2026-03-31"))
        #expect(try midPeriod.period(containing: date("2026-04-05")) == period("2026-04-01", "2026-04-14"))
    }

    @Test("B1: two changes for the same boundary: the later one wins")
    func laterChangeForTheSameBoundaryWins() throws {
        let paydays = try schedule([(1, "2026-01-01"), (10, "2026-02-01"), (20, "2026-02-01")])
        #expect(try paydays.period(containing: date("2026-02-05")) == period("2026-02-01", "2026-02-19"))
    }

    @Test("B1: before the first payday, periods are calendar months, the last cut short the day before it")
    func calendarMonthsBeforeTheFirstPayday() throws {
        #expect(try PaySchedule().period(containing: date("2026-02-10")) == period("2026-02-01", "2026-02-28"))
        let paydays = try schedule([(25, "2026-02-25")])
        #expect(try paydays.period(containing: date("2026-02-10")) == period("2026-02-01", "2026-02-24"))
        #expect(try paydays.period(before: paydays.period(containing: date("2026-03-01"))) == period("2026-02-01", "2026-02-24"))
    }
}
