import TallyModel

/// A sum of minor units in a 128-bit accumulator: adding any number of `Int64` amounts cannot
/// overflow it; only the final conversion to `Money` can fail (G1).
struct MoneySum: Hashable, Sendable {
    /// The currency of the sum.
    let currency: Currency
    /// The running total in minor units.
    private(set) var units: Int128 = 0

    init(_ currency: Currency) { self.currency = currency }

    init(units: Int128, currency: Currency) {
        self.currency = currency
        self.units = units
    }

    /// `units` times `sign` (+1 or -1) as a sum in no particular currency, for adding.
    static func signed(_ units: Int128, _ sign: Int128) -> Int128 { units * sign }

    mutating func add(_ units: Int128) { self.units += units }

    mutating func add(_ minorUnits: Int64) { units += Int128(minorUnits) }
    mutating func subtract(_ minorUnits: Int64) { units -= Int128(minorUnits) }
    mutating func add(_ other: MoneySum) { units += other.units }

    /// The total as `Money`.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when it does not fit in `Int64`.
    func money(rule: String, subject: @autoclosure () -> String) throws(ProjectionError) -> Money {
        guard let minorUnits = Int64(exactly: units) else { throw .overflow(rule: rule, subject: subject()) }
        return Money(minorUnits: minorUnits, currency: currency)
    }
}
