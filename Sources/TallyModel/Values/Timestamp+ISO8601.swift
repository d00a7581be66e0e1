extension Timestamp {
    /// Parses `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC only, exactly three
    /// fraction digits when present; no offsets, no leap seconds).
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` for any other shape or value.
    public init(iso8601 text: String) throws(ModelError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[bytes.count - 1] == UInt8(ascii: "Z"),
              let hour = ISODigits.number(bytes, 11..<13), let minute = ISODigits.number(bytes, 14..<16),
              let second = ISODigits.number(bytes, 17..<19)
        else { throw .invalidDate(text: text, reason: "expected YYYY-MM-DDTHH:MM:SS[.sss]Z") }
        var millisecond = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = ISODigits.number(bytes, 20..<23) else {
                throw .invalidDate(text: text, reason: "expected three fraction digits")
            }
            millisecond = fraction
        }
        guard hour < 24, minute < 60, second < 60 else {
            throw .invalidDate(text: text, reason: "time of day out of range")
        }
        let date = try LocalDate(iso: String(decoding: bytes[0..<10], as: UTF8.self))
        let seconds = ((date.daysSinceEpoch * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
        self.init(millisecondsSinceEpoch: seconds * 1000 + Int64(millisecond))
    }

    /// The ISO 8601 UTC form `YYYY-MM-DDTHH:MM:SS.sssZ`. Years outside 1...9999 (possible only
    /// for extreme raw values) are written with their sign and at least four digits.
    public var iso8601: String {
        let (days, millisecondOfDay) = Timestamp.split(millisecondsSinceEpoch)
        let civil = LocalDate.civilFromDays(days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        if civil.year < 0 { bytes.append(UInt8(ascii: "-")) }
        ISODigits.append(Int(civil.year.magnitude), width: 4, to: &bytes)
        for (separator, value, width) in [
            (UInt8(ascii: "-"), civil.month, 2), (UInt8(ascii: "-"), civil.day, 2),
            (UInt8(ascii: "T"), millisecondOfDay / 3_600_000, 2),
            (UInt8(ascii: ":"), millisecondOfDay / 60_000 % 60, 2),
            (UInt8(ascii: ":"), millisecondOfDay / 1000 % 60, 2),
            (UInt8(ascii: "."), millisecondOfDay % 1000, 3),
        ] {
            bytes.append(separator)
            ISODigits.append(Int(value), width: width, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
