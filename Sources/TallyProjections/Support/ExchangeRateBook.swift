import TallyModel

/// The exchange rates seen so far (N3), by currency pair, each list ordered by `asOf` then by
/// sequence number, so the latest rate at or before a date is found deterministically.
struct ExchangeRateBook: Hashable, Sendable {
    /// One rate of the book.
    @StateFields
    struct DatedRate: Hashable, Sendable {
        let asOf: LocalDate
        let scaledRate: Int64
        let sequenceNumber: UInt64
    }

    /// A directed currency pair: one `base` is worth `rate` `quote`.
    @StateFields
    struct Pair: Hashable, Comparable, Sendable {
        let base: Currency
        let quote: Currency
        static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.base, lhs.quote) < (rhs.base, rhs.quote) }
    }

    private(set) var rates: [Pair: [DatedRate]] = [:]

    init() {}
    init(rates: [Pair: [DatedRate]]) { self.rates = rates }

    /// Adds a rate from an `ExchangeRateSet` event.
    mutating func add(_ event: ExchangeRateSet, sequenceNumber: UInt64) {
        let pair = Pair(base: event.rate.base, quote: event.rate.quote)
        let entry = DatedRate(asOf: event.asOf, scaledRate: event.rate.scaledRate, sequenceNumber: sequenceNumber)
        var list = rates[pair, default: []]
        let index = list.firstIndex { ($0.asOf, $0.sequenceNumber) > (entry.asOf, entry.sequenceNumber) } ?? list.endIndex
        list.insert(entry, at: index)
        rates[pair] = list
    }

    /// The latest rate of `pair` at or before `date`.
    private func latest(_ pair: Pair, onOrBefore date: LocalDate) -> DatedRate? {
        rates[pair]?.last { $0.asOf <= date }
    }

    /// Converts `units` minor units of `source` to `target` with the latest rate at or before
    /// `date` (N3): the direct rate `source/target` if there is one, else the inverse of
    /// `target/source`. Rounds half-even once, at the end (G2).
    /// - Returns: the converted minor units (128-bit), or `nil` when no rate is known: a gap,
    ///   never a silent 1.0.
    func convert(_ units: Int128, from source: Currency, to target: Currency, on date: LocalDate) -> Int128? {
        exactly(units, from: source, to: target, on: date)?.rounded
    }

    /// `units` of `source` in `target` before any rounding (for totals: G2 adds these exactly
    /// and rounds the sum once); `nil` when no rate is known.
    func exactly(_ units: Int128, from source: Currency, to target: Currency, on date: LocalDate) -> ExactAmount? {
        if source == target { return ExactAmount(numerator: units, denominator: 1) }
        let sourceScale = Int128(Self.powerOfTen(source.minorUnitExponent))
        let targetScale = Int128(Self.powerOfTen(target.minorUnitExponent))
        let scale = Int128(ExchangeRate.scale)
        if let direct = latest(Pair(base: source, quote: target), onOrBefore: date) {
            return ExactAmount(numerator: units * Int128(direct.scaledRate) * targetScale, denominator: scale * sourceScale)
        }
        if let reverse = latest(Pair(base: target, quote: source), onOrBefore: date) {
            return ExactAmount(numerator: units * scale * targetScale, denominator: Int128(reverse.scaledRate) * sourceScale)
        }
        return nil
    }

    private static func powerOfTen(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<max(0, exponent) { result *= 10 }
        return result
    }
}
