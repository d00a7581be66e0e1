extension Money {
    /// Formats the amount for people, exactly and independent of the locale (G3):
    /// the ISO code, a space, grouped digits, `.` and all minor-unit digits.
    ///
    /// - CHF uses the Swiss apostrophe for grouping: `CHF 1'234.56`.
    /// - Every other currency uses a comma: `EUR 1,234.56`, `JPY 1,235` (no decimals).
    /// - A negative amount puts the minus sign before the code: `-CHF 12.00`. This keeps the
    ///   code aligned at the start for positive amounts and is accepted by ``parse(_:currency:)``,
    ///   so `Money.parse(m.formatted())` always returns `m`.
    public func formatted() -> String {
        let separator = currency == .chf ? Self.swissGroupingSeparator : UInt8(ascii: ",")
        return "\(minorUnits < 0 ? "-" : "")\(currency.code) \(formattedNumber(groupingSeparator: separator))"
    }

    /// The number alone without code or grouping, e.g. `-1234.56`; suited to CSV and plain-text
    /// accounting exports.
    public func plainNumber() -> String {
        (minorUnits < 0 ? "-" : "") + formattedNumber(groupingSeparator: nil)
    }

    /// The number alone, grouped by three with the Swiss apostrophe (the grouping
    /// ``formatted()`` gives CHF, in any currency), e.g. `-1'234.56`: the CSV exports' Swiss
    /// number format (Flow US-050), which the CSV import reads back.
    public func swissNumber() -> String {
        (minorUnits < 0 ? "-" : "") + formattedNumber(groupingSeparator: Self.swissGroupingSeparator)
    }

    /// The Swiss grouping separator, an apostrophe (`1'234.56`): the one place it is written.
    private static let swissGroupingSeparator = UInt8(ascii: "'")

    /// The magnitude's digits, `.` and every minor-unit digit; the whole part grouped by three
    /// with `groupingSeparator` when one is given.
    private func formattedNumber(groupingSeparator: UInt8?) -> String {
        let magnitude = minorUnits.magnitude
        let perMajor = UInt64(currency.minorUnitsPerMajorUnit)
        let integerDigits = Array(String(magnitude / perMajor).utf8)
        var result: [UInt8] = []
        result.reserveCapacity(integerDigits.count * 2 + 4)
        for (offset, digit) in integerDigits.enumerated() {
            let remaining = integerDigits.count - offset
            if let groupingSeparator, offset > 0, remaining % 3 == 0 { result.append(groupingSeparator) }
            result.append(digit)
        }
        let exponent = currency.minorUnitExponent
        if exponent > 0 {
            result.append(UInt8(ascii: "."))
            let fraction = Array(String(magnitude % perMajor).utf8)
            result.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent - fraction.count))
            result.append(contentsOf: fraction)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
