import TallyModel

/// An amount converted into another currency before rounding: `numerator / denominator` minor
/// units of the target currency (G2).
struct ExactAmount: Hashable, Sendable {
    let numerator: Int128
    let denominator: Int128

    /// Rounded half to even to the minor unit.
    var rounded: Int128 { numerator.dividedRoundingHalfEven(by: denominator) }

    /// Zero minor units.
    static let zero = ExactAmount(numerator: 0, denominator: 1)

    /// The amount with the opposite sign.
    var negated: ExactAmount { ExactAmount(numerator: -numerator, denominator: denominator) }
}

/// A total over several wallets or currencies in one currency, kept exact and rounded half to
/// even once when read (G2: never a sum of rounded parts). The one accumulator every converted
/// total uses: wallet totals in the base currency, net worth, flows.
struct ConvertedTotal: Hashable, Sendable {
    let currency: Currency
    private var numerator: Int128 = 0
    private var denominator: Int128 = 1
    /// Set when the exact sum left 128 bits: reading it is then an overflow error.
    private var overflowed = false

    init(_ currency: Currency) { self.currency = currency }

    /// Adds `part` exactly (fractions over a common denominator, reduced).
    mutating func add(_ part: ExactAmount) {
        guard !overflowed else { return }
        let common = Self.gcd(denominator, part.denominator)
        let (scaleSelf, scaleOther) = (part.denominator / common, denominator / common)
        let (left, leftOverflow) = numerator.multipliedReportingOverflow(by: scaleSelf)
        let (right, rightOverflow) = part.numerator.multipliedReportingOverflow(by: scaleOther)
        let (sum, sumOverflow) = left.addingReportingOverflow(right)
        let (newDenominator, denominatorOverflow) = denominator.multipliedReportingOverflow(by: scaleSelf)
        guard !leftOverflow, !rightOverflow, !sumOverflow, !denominatorOverflow else {
            overflowed = true
            return
        }
        let reduce = Self.gcd(sum, newDenominator)  // gcd(0, d) = d: zero is 0 / 1
        (numerator, denominator) = (sum / reduce, newDenominator / reduce)
    }

    /// Subtracts `part` exactly.
    mutating func subtract(_ part: ExactAmount) { add(part.negated) }

    /// Adds another total of the same currency exactly.
    mutating func add(_ other: ConvertedTotal) {
        guard !other.overflowed else {
            overflowed = true
            return
        }
        add(ExactAmount(numerator: other.numerator, denominator: other.denominator))
    }

    /// The total with the opposite sign.
    var negated: ConvertedTotal {
        var result = ConvertedTotal(currency)
        result.add(self)
        result.numerator = -result.numerator
        return result
    }

    /// The total in minor units, rounded half to even.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when the exact sum did not fit.
    func units(rule: String, subject: @autoclosure () -> String) throws(ProjectionError) -> Int128 {
        guard !overflowed else { throw .overflow(rule: rule, subject: subject()) }
        return ExactAmount(numerator: numerator, denominator: denominator).rounded
    }

    /// The total rounded half to even to the minor unit.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when the exact sum or the rounded
    ///   one does not fit.
    func money(rule: String, subject: @autoclosure () -> String) throws(ProjectionError) -> Money {
        guard !overflowed else { throw .overflow(rule: rule, subject: subject()) }
        return try MoneySum(units: ExactAmount(numerator: numerator, denominator: denominator).rounded, currency: currency)
            .money(rule: rule, subject: subject())
    }

    private static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int128(x)
    }
}
