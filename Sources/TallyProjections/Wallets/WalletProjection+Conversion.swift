import TallyModel

extension WalletProjection {
    /// A total of amounts in several currencies, in `target` (G2): each part, `units / divisor`
    /// minor units of its currency, is converted exactly with the latest rate on or before
    /// `date` (N3), the exact parts are summed and the sum is rounded half to even once.
    ///
    /// Used by totals outside the wallet read model (the monthly equivalent of subscriptions,
    /// R1) so that every converted total rounds the same way.
    /// - Returns: the total, and the currencies without a rate (left out of the total: a gap
    ///   the caller reports, never a silent 1.0).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when the exact sum does not fit.
    package func convertedTotal(
        _ parts: [(units: Int128, currency: Currency)], dividedBy divisor: Int128, into target: Currency, on date: LocalDate, rule: String
    ) throws(ProjectionError) -> (total: Money, missingRates: [Currency]) {
        var total = ConvertedTotal(target)
        var missing = Set<Currency>()
        for part in parts {
            guard let exact = rates.exactly(part.units, from: part.currency, to: target, on: date) else {
                missing.insert(part.currency)
                continue
            }
            total.add(ExactAmount(numerator: exact.numerator, denominator: exact.denominator * max(1, divisor)))
        }
        return (try total.money(rule: rule, subject: "the total in \(target)"), missing.sorted())
    }
}

extension WalletProjection {
    /// `money` in `target` at the latest rate on or before `date` (N3), rounded half to even
    /// once (G2): what a charge in another currency comes to in a wallet's (T7), or any one
    /// amount in another currency.
    /// - Returns: the amount, or `nil` when no rate between the two currencies is known on
    ///   `date` (a gap, never a silent 1.0).
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when the result does not fit.
    public func converted(_ money: Money, into target: Currency, on date: LocalDate) throws(ProjectionError) -> Money? {
        let (total, missing) = try convertedTotal(
            [(Int128(money.minorUnits), money.currency)], dividedBy: 1, into: target, on: date, rule: "N3")
        return missing.isEmpty ? total : nil
    }
}
