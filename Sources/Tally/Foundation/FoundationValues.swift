import Foundation
import TallyModel

// Foundation where an app has it (issue 30; Embedding.md, "Open, observe, execute, close"). The model (TallyModel) does not
// import Foundation, so that no fold can reach a clock, a locale or a calendar; these bridges are
// the host's side of that line: they take an explicit time zone, never the device's, and refuse
// what does not convert exactly instead of rounding it.

extension Identifier {
    /// The id with `uuid`'s 16 bytes.
    public init(_ uuid: UUID) {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(UUIDValue(high: high, low: low))
    }

    /// A new random id (version 4, from `UUID()`): what a host gives a new wallet, transaction
    /// or command. Tests that need repeatable ids use `DeterministicIDGenerator` instead.
    public static func random() -> Identifier { Identifier(UUID()) }

    /// The same 16 bytes as a `UUID`.
    public var uuid: UUID {
        let b = value.bytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

extension Timestamp {
    /// `date` to the nearest millisecond. `Date` keeps its time as a `Double` of seconds since
    /// 2001, so a whole millisecond comes back a hair off (x.94499999 s, and further off the
    /// further from 2001): rounding to the nearest, not down, gives `Timestamp(t.date) == t` for
    /// every timestamp.
    /// - Throws: `ModelError.invalidDate` for a moment outside the years 1...9999 (what a
    ///   timestamp's ISO 8601 text and the JSON schema hold) or not finite.
    public init(_ date: Date) throws(ModelError) {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.toNearestOrAwayFromZero)
        guard let exact = Int64(exactly: milliseconds) else {
            throw .invalidDate(text: "\(date.timeIntervalSince1970)", reason: "not a moment Tally can record (seconds since 1970 out of range)")
        }
        self.init(millisecondsSinceEpoch: exact)
        _ = try utcDate()  // the years 1...9999 (throws invalidDate otherwise)
    }

    /// The host's clock now, to the millisecond: the `recordedAt` of a command made now.
    public static func now() -> Timestamp {
        // The clock is within the years 1...9999; the fallback (1970) is never taken.
        (try? Timestamp(Date())) ?? Timestamp(millisecondsSinceEpoch: 0)
    }

    /// The same moment as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1_000) }
}

extension LocalDate {
    /// The civil date `date` falls on in `timeZone` (the household's, not the device's: the
    /// same moment is another day elsewhere), in Tally's calendar (ISO 8601, the Gregorian one
    /// extended before 1582: counted in days from 1970, not through Foundation's Gregorian
    /// calendar, which is Julian before 1582-10-15).
    /// - Throws: `ModelError.invalidDate` for a year outside 1...9999.
    public init(_ date: Date, in timeZone: TimeZone) throws(ModelError) {
        let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        let days = (seconds / 86_400).rounded(.down)
        guard let whole = Int64(exactly: days) else {
            throw .invalidDate(text: "\(date.timeIntervalSince1970)", reason: "not a moment Tally can record (seconds since 1970 out of range)")
        }
        try self.init(daysSinceEpoch: whole)
    }

    /// The date `components` name (year, month and day; any time in them is ignored).
    /// - Throws: `ModelError.invalidDate` when one is missing, the date does not exist
    ///   (February 30), it is of the era before Christ, or the components are of a calendar
    ///   other than the Gregorian or ISO 8601 one.
    public init(_ components: DateComponents) throws(ModelError) {
        if let calendar = components.calendar, calendar.identifier != .gregorian, calendar.identifier != .iso8601 {
            throw .invalidDate(text: "\(components)", reason: "components of the \(calendar.identifier) calendar; Tally's dates are Gregorian (ISO 8601)")
        }
        if let era = components.era, era != 1 {
            throw .invalidDate(text: "\(components)", reason: "a date before Christ; Tally's years are 1...9999")
        }
        guard let year = components.year, let month = components.month, let day = components.day else {
            throw .invalidDate(text: "\(components)", reason: "a date needs a year, a month and a day")
        }
        try self.init(year: year, month: month, day: day)
    }

    /// Its year, month and day, with the ISO 8601 calendar (the Gregorian one, extended before
    /// 1582).
    public var dateComponents: DateComponents {
        DateComponents(calendar: Calendar(identifier: .iso8601), year: year, month: month, day: day)
    }

    /// The moment this day starts in `timeZone` (for a date picker or a notification): its
    /// midnight there, counted from 1970 in days (Tally's calendar, as `init(_:in:)`).
    public func startDate(in timeZone: TimeZone) -> Date {
        let midnightUTC = Double(daysSinceEpoch) * 86_400
        // The zone's offset at that midnight, found from the offset at UTC midnight (twice:
        // a daylight-saving change between the two moments moves it).
        let first = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnightUTC))
        let second = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: midnightUTC - Double(first)))
        return Date(timeIntervalSince1970: midnightUTC - Double(second))
    }
}

extension Money {
    /// `amount` major units of `currency`, exactly: 12.5 CHF is 1250 minor units.
    /// - Throws: `ModelError.tooManyDecimals` when it has more decimals than the
    ///   currency's minor unit (12.345 CHF), `ModelError.overflow` when its minor
    ///   units do not fit an `Int64` (G1), `ModelError.invalidAmount` for NaN.
    public init(_ amount: Decimal, _ currency: Currency) throws(ModelError) {
        guard !amount.isNaN else { throw .invalidAmount(text: "\(amount)", reason: "not a number") }
        var scaled = amount * Decimal(currency.minorUnitsPerMajorUnit)
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        guard whole == scaled else { throw .tooManyDecimals(text: "\(amount)", currency: currency) }
        // A whole Decimal's text is its digits: read back exactly (no Double on the way).
        guard let minorUnits = Int64(whole.description) else {
            throw .overflow(operation: "\(amount) \(currency.code) in minor units")
        }
        self.init(minorUnits: minorUnits, currency: currency)
    }

    /// The amount in major units, exactly (1250 minor units of CHF: 12.5).
    public var decimalAmount: Decimal {
        Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: -currency.minorUnitExponent, significand: Decimal(minorUnits.magnitude))
    }
}
