import PropertyBased
import Testing
import TallyModel

@Suite("LocalDate, YearMonth and Timestamp")
struct LocalDateTests {
    static func date(_ text: String) throws -> LocalDate { try LocalDate(iso: text) }

    @Test("T4: Jan 31 + 1 month clamps to Feb 28, or Feb 29 in a leap year")
    func monthEndClamping() throws {
        #expect(try Self.date("2026-01-31").adding(months: 1) == Self.date("2026-02-28"))
        #expect(try Self.date("2024-01-31").adding(months: 1) == Self.date("2024-02-29"))
        #expect(try Self.date("2026-03-31").adding(months: -1) == Self.date("2026-02-28"))
        #expect(try Self.date("2024-02-29").adding(months: 12) == Self.date("2025-02-28"))
        #expect(try Self.date("2026-12-15").adding(months: 1) == Self.date("2027-01-15"))
        #expect(try Self.date("2026-01-15").adding(months: -13) == Self.date("2024-12-15"))
    }

    @Test("T4: monthly stepping from the anchor never drifts: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30")
    func monthlyFromAnchorDoesNotDrift() throws {
        let anchor = try Self.date("2026-01-31")
        let dates = try (0..<4).map { index in try RecurrenceFrequency.monthly.occurrence(index, from: anchor) }
        #expect(dates.map(\.isoString) == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        let quarterly = try (0..<3).map { index in try RecurrenceFrequency.quarterly.occurrence(index, from: anchor) }
        #expect(quarterly.map(\.isoString) == ["2026-01-31", "2026-04-30", "2026-07-31"])
        #expect(try RecurrenceFrequency.biweekly.occurrence(2, from: anchor).isoString == "2026-02-28")
    }

    @Test("B1: leap years: 1900 no, 2000 yes, 2024 yes, 2026 no")
    func leapYears() {
        #expect(!LocalDate.isLeapYear(1900))
        #expect(LocalDate.isLeapYear(2000))
        #expect(LocalDate.isLeapYear(2024))
        #expect(!LocalDate.isLeapYear(2026))
        #expect(LocalDate.daysInMonth(year: 2024, month: 2) == 29)
        #expect(LocalDate.daysInMonth(year: 1900, month: 2) == 28)
    }

    @Test("B5: ISO weekday of known dates; 2026-11-21 is a Saturday; weeks start on Monday")
    func weekdays() throws {
        #expect(try Self.date("2026-11-21").isoWeekday == 6)
        #expect(try Self.date("1970-01-01").isoWeekday == 4)
        #expect(try Self.date("2000-01-01").isoWeekday == 6)
        #expect(try Self.date("2024-02-29").isoWeekday == 4)
        #expect(try Self.date("2026-11-21").startOfISOWeek == Self.date("2026-11-16"))
        #expect(try Self.date("2026-11-16").startOfISOWeek == Self.date("2026-11-16"))
        #expect(try Self.date("2026-11-22").startOfISOWeek == Self.date("2026-11-16"))
        #expect(LocalDate.min.startOfISOWeek == .min)
    }

    @Test("G3: days since epoch round-trips over years 1...9999")
    func daysSinceEpochRoundTrip() async {
        let range = LocalDate.min.daysSinceEpoch...LocalDate.max.daysSinceEpoch
        await propertyCheck(count: 2000, input: Gen.int64(in: range)) { days in
            let date = try LocalDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(try LocalDate(year: date.year, month: date.month, day: date.day) == date)
            #expect(try LocalDate(iso: date.isoString) == date)
            if days < range.upperBound {
                #expect(try date.adding(days: 1) > date)
            }
        }
        #expect(LocalDate.min.daysSinceEpoch == -719_162)
        #expect(throws: ModelError.self) { try LocalDate(daysSinceEpoch: range.upperBound + 1) }
    }

    @Test("G3: ISO date parsing rejects malformed and impossible dates", arguments: [
        "2026-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "26-01-01", "2026/01/01", "0000-01-01", "2026-01-32",
        "", "2026-01-01T", "２０２６-01-01",
    ])
    func isoParseErrors(text: String) {
        #expect(throws: ModelError.self) { try LocalDate(iso: text) }
    }

    @Test("N2: YearMonth parses YYYY-MM and knows its last day")
    func yearMonth() throws {
        let february = try YearMonth(iso: "2024-02")
        #expect(february.lastDay == (try Self.date("2024-02-29")))
        #expect(try february.adding(months: 11).isoString == "2025-01")
        #expect(throws: ModelError.self) { try YearMonth(iso: "2024-13") }
        #expect(throws: ModelError.self) { try YearMonth(iso: "2024-2") }
        #expect(try Self.date("2026-11-21").yearMonth.isoString == "2026-11")
    }

    @Test("G3: timestamps format and parse ISO 8601 UTC with milliseconds")
    func timestamps() throws {
        let stamp = try Timestamp(iso8601: "2026-11-21T10:00:00.000Z")
        #expect(stamp.iso8601 == "2026-11-21T10:00:00.000Z")
        #expect(try Timestamp(iso8601: "2026-11-21T10:00:00Z") == stamp)
        #expect(Timestamp(millisecondsSinceEpoch: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(millisecondsSinceEpoch: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(try Timestamp(iso8601: "1969-12-31T23:59:59.999Z").millisecondsSinceEpoch == -1)
        #expect(try stamp.utcDate() == Self.date("2026-11-21"))
        for bad in ["2026-11-21T24:00:00Z", "2026-11-21 10:00:00Z", "2026-11-21T10:00:00+01:00", "2026-11-21T10:00:00.5Z"] {
            #expect(throws: ModelError.self) { try Timestamp(iso8601: bad) }
        }
    }

    @Test("G3: timestamp ISO text round-trips for any millisecond in years 1...9999")
    func timestampRoundTrip() async {
        let low = LocalDate.min.daysSinceEpoch * 86_400_000
        let high = (LocalDate.max.daysSinceEpoch + 1) * 86_400_000 - 1
        await propertyCheck(count: 1000, input: Gen.int64(in: low...high)) { milliseconds in
            let stamp = Timestamp(millisecondsSinceEpoch: milliseconds)
            let parsed = try Timestamp(iso8601: stamp.iso8601)
            #expect(parsed == stamp)
        }
    }
}
