import Foundation
import Tally
import Testing

/// Issue 30 item 3: Foundation where an app has it. Written with `import Tally` alone (and
/// Foundation): ids, dates, money and their errors come with it (item 1, one import).
@Suite("Foundation values")
struct FoundationValuesTests {
    @Test("issue 30: an id from a UUID has its 16 bytes and text, and gives the same UUID back; random ids differ")
    func identifiersFromUUIDs() throws {
        let uuid = try #require(UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"))
        let id = WalletID(uuid)
        #expect(id.description == "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
        #expect(id.uuid == uuid)
        #expect(try WalletID(parsing: uuid.uuidString.lowercased()) == id)
        #expect(TransactionID.random() != TransactionID.random())
    }

    @Test("issue 30: a timestamp from a Date is its nearest millisecond, and every timestamp comes back from its Date (now, before 2001, before 1970); a moment outside the years 1...9999 or not finite is refused, never trapped")
    func timestampsFromDates() throws {
        #expect(try Timestamp(Date(timeIntervalSince1970: 1_767_225_600.1236)).millisecondsSinceEpoch == 1_767_225_600_124)
        #expect(try Timestamp(Date(timeIntervalSince1970: -0.0015)).millisecondsSinceEpoch == -2)
        let moment = Timestamp(millisecondsSinceEpoch: 1_767_225_600_123)
        #expect(try Timestamp(moment.date) == moment)
        #expect(throws: ModelError.self) { try Timestamp(Date(timeIntervalSince1970: 1e300)) }
        #expect(throws: ModelError.self) { try Timestamp(Date(timeIntervalSince1970: .infinity)) }
        // Every millisecond comes back from its Date (a Double of seconds since 2001 can hold
        // x.94499999 for x.945): random ones now, before 2001 and before 1970.
        var generator = SystemRandomNumberGenerator()
        for range in [Int64(1_600_000_000_000)...1_900_000_000_000, -2_000_000_000_000...978_307_200_000, -62_135_596_800_000...0] {
            for _ in 0..<2_000 {
                let moment = Timestamp(millisecondsSinceEpoch: Int64.random(in: range, using: &generator))
                #expect(try Timestamp(moment.date) == moment, "\(moment.millisecondsSinceEpoch)")
            }
        }
        #expect(try Timestamp(Date(timeIntervalSince1970: 1_078_968_018.945)).millisecondsSinceEpoch == 1_078_968_018_945)
        #expect(throws: ModelError.self) { try Timestamp(Date(timeIntervalSince1970: 300_000_000_000)) }  // the year 11476: no ISO text
        let now = Timestamp.now()
        #expect(abs(now.date.timeIntervalSinceNow) < 60, "the host's clock")
    }

    @Test("issue 30: a business date is the civil day a moment falls on in the household's time zone (not the device's); it starts at that zone's midnight; components of another calendar, a missing day or a day that does not exist are refused")
    func businessDatesFromDates() throws {
        let zurich = try #require(TimeZone(identifier: "Europe/Zurich"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let lateEvening = Date(timeIntervalSince1970: 1_772_407_800)  // 2026-03-01T23:30:00Z
        #expect(try LocalDate(lateEvening, in: utc) == LocalDate(year: 2026, month: 3, day: 1))
        #expect(try LocalDate(lateEvening, in: zurich) == LocalDate(year: 2026, month: 3, day: 2), "00:30 in Zurich")
        let day = try LocalDate(year: 2026, month: 3, day: 2)
        #expect(day.startDate(in: zurich) == Date(timeIntervalSince1970: 1_772_406_000), "2026-03-01T23:00:00Z")
        #expect(try LocalDate(day.startDate(in: zurich), in: zurich) == day)
        #expect(try LocalDate(day.dateComponents) == day)
        // Tally's calendar is ISO 8601's (the Gregorian one before 1582 too; Foundation's
        // Gregorian calendar is Julian then): a day starts at its count of days from 1970.
        let early = try LocalDate(year: 1500, month: 1, day: 1)
        #expect(try LocalDate(early.startDate(in: utc), in: utc) == early)
        #expect(early.startDate(in: utc).timeIntervalSince1970 == Double(early.daysSinceEpoch) * 86_400)
        #expect(throws: ModelError.self) { try LocalDate(DateComponents(era: 0, year: 5, month: 1, day: 1)) }
        #expect(throws: ModelError.self) { try LocalDate(DateComponents(year: 2026, month: 2, day: 30)) }
        #expect(throws: ModelError.self) { try LocalDate(DateComponents(year: 2026, month: 2)) }
        #expect(throws: ModelError.self) { try LocalDate(DateComponents(calendar: Calendar(identifier: .hebrew), year: 5786, month: 6, day: 1)) }
    }

    @Test("G1, issue 30: money from a Decimal is exact in the currency's minor units (CHF 2, JPY 0, BHD 3 decimals); more decimals than the currency has, NaN or minor units beyond an Int64 are refused; back to a Decimal it is the same number")
    func moneyFromDecimals() throws {
        func decimal(_ text: String) throws -> Decimal { try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))) }
        #expect(try Money(decimal("12.5"), .chf) == Money(minorUnits: 1_250, currency: .chf))
        #expect(try Money(decimal("-0.05"), .chf) == Money(minorUnits: -5, currency: .chf))
        #expect(try Money(decimal("1234"), .jpy) == Money(minorUnits: 1_234, currency: .jpy))
        #expect(try Money(decimal("1.234"), .bhd) == Money(minorUnits: 1_234, currency: .bhd))
        #expect(throws: ModelError.tooManyDecimals(text: "12.345", currency: .chf)) { try Money(decimal("12.345"), .chf) }
        #expect(throws: ModelError.self) { try Money(decimal("0.5"), .jpy) }
        #expect(throws: ModelError.self) { try Money(decimal("92233720368547758.08"), .chf) }
        #expect(throws: ModelError.self) { try Money(Decimal.nan, .chf) }
        let largest = Money(minorUnits: .max, currency: .chf)
        #expect(try largest.decimalAmount == decimal("92233720368547758.07"))
        #expect(try Money(largest.decimalAmount, .chf) == largest)
        #expect(try Money(minorUnits: -1_250, currency: .chf).decimalAmount == decimal("-12.5"))
        #expect(try Money(minorUnits: 7, currency: .bhd).decimalAmount == decimal("0.007"))
    }

    struct Saved: Codable, Equatable {
        var wallet: WalletID
        var amount: Money
        var date: LocalDate
        var month: YearMonth
        var recordedAt: Timestamp
    }

    @Test("issue 30: ids, money, dates, months and timestamps are Codable in the JSON command schema's forms (UUID text, minor units with the code, ISO dates, ISO 8601 with milliseconds); a value the model refuses fails decoding with the model's message")
    func valuesAreCodable() throws {
        let saved = Saved(
            wallet: try WalletID(parsing: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"), amount: Money(minorUnits: 1_250, currency: .chf),
            date: try LocalDate(year: 2026, month: 3, day: 2), month: try YearMonth(year: 2026, month: 3),
            recordedAt: Timestamp(millisecondsSinceEpoch: 1_772_407_800_123))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(saved), as: UTF8.self)
        #expect(json == #"{"amount":{"currency":"CHF","minorUnits":1250},"date":"2026-03-02","month":"2026-03","recordedAt":"2026-03-01T23:30:00.123Z","wallet":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}"#)
        #expect(try JSONDecoder().decode(Saved.self, from: Data(json.utf8)) == saved)
        let badDate = json.replacingOccurrences(of: "2026-03-02", with: "2026-02-30")
        do {
            _ = try JSONDecoder().decode(Saved.self, from: Data(badDate.utf8))
            Issue.record("a date that does not exist decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("2026-02-30"), "\(context.debugDescription)")
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Saved.self, from: Data(json.replacingOccurrences(of: "CHF", with: "chf1").utf8))
        }
    }
}
