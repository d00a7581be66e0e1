extension Money {
    /// Parses an amount typed by a user or read from a file, exactly (G1: no floating point).
    ///
    /// Accepted forms (surrounding spaces ignored):
    /// - plain or grouped digits: `1234.5`, `1'234.50`, `1,234.50`, `1’234.50`, `1 234.50`;
    ///   a grouping separator must sit between digits and be followed by exactly three digits;
    /// - a sign before the number or before the code: `-12`, `+12`, `-CHF 12.00`, `CHF -12.00`;
    /// - an optional ISO code prefix: `CHF 12.30` or `CHF12.30`, which must equal `currency`.
    ///
    /// `.` is the only decimal separator, so the European `12,50` is rejected rather than read
    /// as 1250. Fewer decimals than the currency's exponent are padded (`1234.5` CHF is 123450
    /// minor units); more decimals are an error, never rounded.
    ///
    /// - Parameters:
    ///   - text: the text to parse.
    ///   - currency: the currency of the result; `nil` requires the text to start with a code.
    /// - Returns: the amount.
    /// - Throws: ``ModelError/invalidAmount(text:reason:)`` for garbage,
    ///   ``ModelError/tooManyDecimals(text:currency:)``, ``ModelError/overflow(operation:)`` when
    ///   the value does not fit in `Int64` minor units, ``ModelError/currencyMismatch(_:_:)``
    ///   when the code in the text differs from `currency`, and
    ///   ``ModelError/invalidCurrencyCode(_:)`` for a malformed code.
    public static func parse(_ text: String, currency: Currency? = nil) throws(ModelError) -> Money {
        var scanner = _AmountScanner(text: text)
        return try scanner.scan(expectedCurrency: currency)
    }
}

/// The state of one ``Money/parse(_:currency:)`` call, over the UTF-8 bytes of the text.
struct _AmountScanner {
    private let text: String
    private let bytes: [UInt8]
    private var index = 0

    init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    mutating func scan(expectedCurrency: Currency?) throws(ModelError) -> Money {
        skipSpaces()
        var isNegative = scanSign()
        let codeCurrency = try scanCurrencyCode()
        guard let currency = codeCurrency ?? expectedCurrency else {
            throw .invalidAmount(text: text, reason: "no currency given and no code in the text")
        }
        if let expectedCurrency, let codeCurrency, expectedCurrency != codeCurrency {
            throw .currencyMismatch(codeCurrency, expectedCurrency)
        }
        if codeCurrency != nil {
            skipSpaces()
            if scanSign() {
                guard !isNegative else { throw .invalidAmount(text: text, reason: "two signs") }
                isNegative = true
            }
        }
        let magnitude = try scanMagnitude(currency: currency)
        skipSpaces()
        guard index == bytes.count else {
            throw .invalidAmount(text: text, reason: "unexpected characters after the number")
        }
        return try makeMoney(magnitude: magnitude, isNegative: isNegative, currency: currency)
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }

    private mutating func scanSign() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "-"): index += 1; return true
        case UInt8(ascii: "+"): index += 1; return false
        default: return false
        }
    }

    private mutating func scanCurrencyCode() throws(ModelError) -> Currency? {
        guard index + 3 <= bytes.count, bytes[index..<index + 3].allSatisfy(Self.isLetter) else {
            if index < bytes.count, Self.isLetter(bytes[index]) {
                throw .invalidAmount(text: text, reason: "expected a three-letter currency code")
            }
            return nil
        }
        let currency = try Currency(asciiBytes: bytes[index], bytes[index + 1], bytes[index + 2])
        index += 3
        return currency
    }

    /// Reads the digits as a count of minor units (always non-negative).
    private mutating func scanMagnitude(currency: Currency) throws(ModelError) -> UInt64 {
        var magnitude: UInt64 = 0
        var integerDigits = 0
        var digitsSinceSeparator = 0
        var sawSeparator = false
        while index < bytes.count {
            let byte = bytes[index]
            if let digit = Self.digitValue(byte) {
                magnitude = try accumulate(magnitude, digit)
                integerDigits += 1
                digitsSinceSeparator += 1
                index += 1
            } else if let length = groupingSeparatorLength(at: index) {
                guard integerDigits > 0, !sawSeparator || digitsSinceSeparator == 3 else {
                    throw .invalidAmount(text: text, reason: "misplaced grouping separator")
                }
                sawSeparator = true
                digitsSinceSeparator = 0
                index += length
            } else {
                break
            }
        }
        guard integerDigits > 0 else { throw .invalidAmount(text: text, reason: "no digits") }
        guard !sawSeparator || digitsSinceSeparator == 3 else {
            throw .invalidAmount(text: text, reason: "misplaced grouping separator")
        }
        return try scanFraction(magnitude: magnitude, currency: currency)
    }

    private mutating func scanFraction(magnitude: UInt64, currency: Currency) throws(ModelError) -> UInt64 {
        var magnitude = magnitude
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, let digit = Self.digitValue(bytes[index]) {
                fractionDigits += 1
                guard fractionDigits <= currency.minorUnitExponent else {
                    throw .tooManyDecimals(text: text, currency: currency)
                }
                magnitude = try accumulate(magnitude, digit)
                index += 1
            }
            guard fractionDigits > 0 else { throw .invalidAmount(text: text, reason: "no digits after '.'") }
        }
        for _ in fractionDigits..<currency.minorUnitExponent {
            magnitude = try accumulate(magnitude, 0)
        }
        return magnitude
    }

    private func accumulate(_ magnitude: UInt64, _ digit: UInt64) throws(ModelError) -> UInt64 {
        let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        guard !overflow1, !overflow2, sum <= UInt64(Int64.max) + 1 else {
            throw .overflow(operation: "parsing '\(text)'")
        }
        return sum
    }

    private func makeMoney(magnitude: UInt64, isNegative: Bool, currency: Currency) throws(ModelError) -> Money {
        if isNegative {
            return Money(minorUnits: Int64(truncatingIfNeeded: 0 &- magnitude), currency: currency)
        }
        guard magnitude <= UInt64(Int64.max) else { throw .overflow(operation: "parsing '\(text)'") }
        return Money(minorUnits: Int64(magnitude), currency: currency)
    }

    /// `'`, `,`, a space between digits, or the typographic apostrophe U+2019 (3 UTF-8 bytes).
    private func groupingSeparatorLength(at position: Int) -> Int? {
        switch bytes[position] {
        case UInt8(ascii: "'"), UInt8(ascii: ","):
            return 1
        case UInt8(ascii: " "):
            let next = position + 1
            return next < bytes.count && Self.digitValue(bytes[next]) != nil ? 1 : nil
        case 0xE2 where position + 2 < bytes.count && bytes[position + 1] == 0x80 && bytes[position + 2] == 0x99:
            return 3
        default:
            return nil
        }
    }

    private static func digitValue(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }
}
