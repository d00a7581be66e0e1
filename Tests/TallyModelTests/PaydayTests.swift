import TallyModel
import Testing

@Suite("Payday arithmetic")
struct PaydayTests {
    func date(_ text: String) throws -> LocalDate { try LocalDate(iso: text) }

    @Test("B1: payday 31 falls on the month's last day (Feb 28, Feb 29 in leap years, Apr 30)")
    func paydayClamps() throws {
        #expect(try date("2026-02-10").payday(onDay: 31) == date("2026-02-28"))
        #expect(try date("2028-02-10").payday(onDay: 31) == date("2028-02-29"))
        #expect(try date("2026-04-01").payday(onDay: 31) == date("2026-04-30"))
        #expect(try date("2026-04-01").payday(onDay: 0) == nil)
    }

    @Test("B1: the next payday is strictly after the date; the latest is on or before it")
    func nextAndLatest() throws {
        #expect(try date("2026-01-31").nextPayday(onDay: 31) == date("2026-02-28"))
        #expect(try date("2026-01-30").nextPayday(onDay: 31) == date("2026-01-31"))
        #expect(try date("2026-12-25").nextPayday(onDay: 25) == date("2027-01-25"))
        #expect(try date("2026-03-10").latestPayday(onDay: 25) == date("2026-02-25"))
        #expect(try date("2026-03-25").latestPayday(onDay: 25) == date("2026-03-25"))
        #expect(try date("2026-03-01").latestPayday(onDay: 31) == date("2026-02-28"))
    }
}
