import TallyModel

/// A bound on every sum of money the engine and the read models can compute (G1, Docs/Commands.md
/// "Limits"): per currency, the sum of the magnitudes of every amount ever recorded in it, and
/// per directed currency pair, the extreme exchange rates ever set.
///
/// Any figure a read model derives in one currency (a wallet balance on any date, a debt, a
/// group balance, a budget total, a total over wallets) is a signed sum of some of those amounts,
/// so its magnitude is at most ``minorUnits(in:)``; a total converted into the base currency is
/// at most ``convertedMinorUnits(into:)``. Validation keeps both under ``LedgerLimits``, so no
/// such figure can leave `Int64`. The bound only grows (a deletion does not lower it): simple,
/// order-independent and conservative.
package struct MoneyExposure: Sendable, Equatable {
    /// The sum of magnitudes per currency; saturates at `Int64.max` (never wraps).
    var magnitudes: [Currency: Int64] = [:]
    /// The largest and smallest scaled rate set per directed pair (N3).
    var rates: [RatePair: RateExtremes] = [:]

    /// A directed currency pair (`base/quote`).
    struct RatePair: Hashable, Comparable, Sendable {
        let base: Currency
        let quote: Currency
        static func < (lhs: RatePair, rhs: RatePair) -> Bool { (lhs.base, lhs.quote) < (rhs.base, rhs.quote) }
    }

    /// The extreme `scaledRate`s of one pair.
    struct RateExtremes: Hashable, Sendable {
        var largest: Int64
        var smallest: Int64
    }

    /// An empty exposure.
    package init() {}

    /// The bound on any sum in `currency`, in its minor units.
    package func minorUnits(in currency: Currency) -> Int64 { magnitudes[currency] ?? 0 }

    /// The currencies with recorded amounts, sorted.
    package var currencies: [Currency] { magnitudes.keys.sorted() }

    /// Adds the magnitude of `money` (saturating).
    mutating func record(_ money: Money) {
        let (sum, overflow) = minorUnits(in: money.currency).addingReportingOverflow(Int64(clamping: money.minorUnits.magnitude))
        magnitudes[money.currency] = overflow ? .max : sum
    }

    /// Notes a rate's extremes.
    mutating func record(_ rate: ExchangeRate) {
        let pair = RatePair(base: rate.base, quote: rate.quote)
        var extremes = rates[pair] ?? RateExtremes(largest: rate.scaledRate, smallest: rate.scaledRate)
        extremes.largest = max(extremes.largest, rate.scaledRate)
        extremes.smallest = min(extremes.smallest, rate.scaledRate)
        rates[pair] = extremes
    }

    /// A bound on any total of amounts converted into `base` in its minor units: per currency,
    /// its ``minorUnits(in:)`` times the largest conversion factor into `base` any rate set so far
    /// gives (a direct `currency/base` rate, or the inverse of a `base/currency` rate), rounded
    /// up. `nil` when the bound itself leaves 128 bits (far over any limit).
    package func convertedMinorUnits(into base: Currency) -> Int128? {
        var total: Int128 = 0
        for (currency, units) in magnitudes {
            guard let converted = Self.convertedBound(Int128(units), from: currency, to: base, rates: rates) else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(converted)
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }

    private static func convertedBound(_ units: Int128, from source: Currency, to target: Currency, rates: [RatePair: RateExtremes]) -> Int128? {
        if source == target { return units }
        let sourceScale = Int128(source.minorUnitsPerMajorUnit)
        let targetScale = Int128(target.minorUnitsPerMajorUnit)
        let scale = Int128(ExchangeRate.scale)
        var bound: Int128 = 0
        if let direct = rates[RatePair(base: source, quote: target)] {
            guard let value = ceilingQuotient(units, times: Int128(direct.largest) * targetScale, over: scale * sourceScale) else { return nil }
            bound = max(bound, value)
        }
        if let inverse = rates[RatePair(base: target, quote: source)] {
            guard let value = ceilingQuotient(units, times: scale * targetScale, over: Int128(inverse.smallest) * sourceScale) else { return nil }
            bound = max(bound, value)
        }
        return bound
    }

    /// `ceil(value * factor / divisor)` for non-negative inputs, `nil` on overflow.
    private static func ceilingQuotient(_ value: Int128, times factor: Int128, over divisor: Int128) -> Int128? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow, divisor > 0 else { return nil }
        return (product + divisor - 1) / divisor
    }
}

extension MoneyExposure {
    /// Adds what `payload` records: every amount it carries
    /// (``EventPayload/recordedAmounts(in:)``) and its exchange rate.
    mutating func record(_ payload: EventPayload, in state: LedgerState) {
        for amount in payload.recordedAmounts(in: state) { record(amount) }
        if case .exchangeRateSet(let event) = payload { record(event.rate) }
    }
}
