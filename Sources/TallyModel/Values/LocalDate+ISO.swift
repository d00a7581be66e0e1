extension LocalDate {
    /// Parses the ISO 8601 calendar date form `YYYY-MM-DD` (exactly 10 characters).
    /// - Throws: ``ModelError/invalidDate(text:reason:)`` for any other shape or an impossible
    ///   date such as `2023-02-29`.
    public init(iso text: String) throws(ModelError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = ISODigits.number(bytes, 0..<4),
              let month = ISODigits.number(bytes, 5..<7),
              let day = ISODigits.number(bytes, 8..<10)
        else { throw .invalidDate(text: text, reason: "expected YYYY-MM-DD") }
        do {
            try self.init(year: year, month: month, day: day)
        } catch {
            throw .invalidDate(text: text, reason: "no such day")
        }
    }

    /// The ISO 8601 form `YYYY-MM-DD`, e.g. `2026-11-21`.
    public var isoString: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        ISODigits.append(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ISODigits.append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        ISODigits.append(day, width: 2, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Fixed-width decimal digits for the ISO date and time forms.
enum ISODigits {
    /// The value of the ASCII digits in `range`, or `nil` if any byte is not a digit.
    static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Appends `value` (non-negative) zero-padded to at least `width` digits.
    static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        let digits = Array(String(value).utf8)
        if digits.count < width {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
        }
        bytes.append(contentsOf: digits)
    }
}
