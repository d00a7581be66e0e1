/// An exact exchange rate between two currencies (G2, N3): one major unit of ``base`` is worth
/// `scaledRate / 10^8` major units of ``quote``.
///
/// `EUR/CHF 0.9412` is stored as `scaledRate == 94_120_000`. Eight decimals hold every rate
/// published by central banks exactly; no binary floating point is involved anywhere.
public struct ExchangeRate: Hashable, Sendable {
    /// The fixed scale of ``scaledRate``: 10^8.
    public static let scale: Int64 = 100_000_000
    /// The number of decimals of ``scaledRate``.
    public static let scaleDecimals = 8

    /// The currency being priced (1 unit of it...).
    public let base: Currency
    /// The currency the price is expressed in (...is worth this many of it).
    public let quote: Currency
    /// The rate times 10^8, always positive.
    public let scaledRate: Int64

    /// Creates a rate.
    /// - Throws: ``ModelError/invalidExchangeRate(reason:)`` when `scaledRate <= 0` or the two
    ///   currencies are the same.
    public init(base: Currency, quote: Currency, scaledRate: Int64) throws(ModelError) {
        guard scaledRate > 0 else { throw .invalidExchangeRate(reason: "rate must be positive") }
        guard base != quote else { throw .invalidExchangeRate(reason: "\(base) to itself") }
        self.base = base
        self.quote = quote
        self.scaledRate = scaledRate
    }

    /// Parses a decimal rate such as `"0.9412"` (at most 8 decimals, no grouping).
    /// - Throws: ``ModelError/invalidExchangeRate(reason:)`` for malformed text, too many decimals,
    ///   a non-positive value or overflow.
    public static func parse(base: Currency, quote: Currency, _ text: String) throws(ModelError) -> ExchangeRate {
        var scaled: Int64 = 0
        var decimals: Int? = nil
        for byte in text.utf8 {
            if byte == UInt8(ascii: "."), decimals == nil {
                decimals = 0
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw .invalidExchangeRate(reason: "'\(text)' is not a decimal number")
            }
            if let count = decimals {
                guard count < scaleDecimals else { throw .invalidExchangeRate(reason: "more than 8 decimals") }
                decimals = count + 1
            }
            scaled = try checkedMultiplyAdd(scaled, 10, Int64(byte - UInt8(ascii: "0")))
        }
        for _ in (decimals ?? 0)..<scaleDecimals { scaled = try checkedMultiplyAdd(scaled, 10, 0) }
        return try ExchangeRate(base: base, quote: quote, scaledRate: scaled)
    }

    private static func checkedMultiplyAdd(_ value: Int64, _ factor: Int64, _ addend: Int64) throws(ModelError) -> Int64 {
        let (product, overflow1) = value.multipliedReportingOverflow(by: factor)
        let (sum, overflow2) = product.addingReportingOverflow(addend)
        guard !overflow1, !overflow2 else { throw .invalidExchangeRate(reason: "rate too large") }
        return sum
    }

    /// Converts an amount in ``base`` to `target` (which must be ``quote``), rounding half-even
    /// once, to the target's minor unit (G2). Uses 128-bit intermediates.
    ///
    /// - Parameters:
    ///   - money: an amount in ``base``.
    ///   - target: the currency to convert to; must equal ``quote``.
    /// - Returns: the converted amount.
    /// - Throws: ``ModelError/currencyMismatch(_:_:)`` when `money` is not in ``base`` or `target`
    ///   is not ``quote``; ``ModelError/overflow(operation:)`` when the result does not fit.
    public func convert(_ money: Money, to target: Currency) throws(ModelError) -> Money {
        guard money.currency == base else { throw .currencyMismatch(money.currency, base) }
        guard target == quote else { throw .currencyMismatch(target, quote) }
        let exponentShift = quote.minorUnitExponent - base.minorUnitExponent
        var numerator = Int128(money.minorUnits) * Int128(scaledRate)
        var denominator = Int128(ExchangeRate.scale)
        let shiftFactor = Int128(Self.powerOfTen(exponentShift.magnitude))
        if exponentShift >= 0 {
            let (shifted, overflow) = numerator.multipliedReportingOverflow(by: shiftFactor)
            guard !overflow else { throw .overflow(operation: "converting \(money) to \(target)") }
            numerator = shifted
        } else {
            denominator *= shiftFactor
        }
        let rounded = numerator.dividedRoundingHalfEven(by: denominator)
        guard let minorUnits = Int64(exactly: rounded) else {
            throw .overflow(operation: "converting \(money) to \(target)")
        }
        return Money(minorUnits: minorUnits, currency: target)
    }

    private static func powerOfTen(_ exponent: UInt) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

extension ExchangeRate: CustomStringConvertible {
    /// E.g. `EUR/CHF 0.94120000`.
    public var description: String { "\(base)/\(quote) \(rateText)" }

    /// The rate as a decimal with every one of its 8 decimals (`0.94120000`), as
    /// ``parse(base:quote:_:)`` reads it.
    public var rateText: String {
        let fraction = String(scaledRate % ExchangeRate.scale)
        let padding = String(repeating: "0", count: ExchangeRate.scaleDecimals - fraction.count)
        return "\(scaledRate / ExchangeRate.scale).\(padding)\(fraction)"
    }
}
