extension Money {
    /// Adds two amounts of the same currency.
    /// - Throws: ``ModelError/currencyMismatch(_:_:)`` or ``ModelError/overflow(operation:)``.
    public func adding(_ other: Money) throws(ModelError) -> Money {
        try requireSameCurrency(other)
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(operation: "\(self) + \(other)") }
        return Money(minorUnits: sum, currency: currency)
    }

    /// Subtracts an amount of the same currency.
    /// - Throws: ``ModelError/currencyMismatch(_:_:)`` or ``ModelError/overflow(operation:)``.
    public func subtracting(_ other: Money) throws(ModelError) -> Money {
        try requireSameCurrency(other)
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(operation: "\(self) - \(other)") }
        return Money(minorUnits: difference, currency: currency)
    }

    /// Multiplies the amount by a whole number (e.g. a count of weeks).
    /// - Throws: ``ModelError/overflow(operation:)``.
    public func multiplied(by factor: Int64) throws(ModelError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw .overflow(operation: "\(self) * \(factor)") }
        return Money(minorUnits: product, currency: currency)
    }

    /// The amount with its sign flipped.
    /// - Throws: ``ModelError/overflow(operation:)`` for `Int64.min` minor units, whose negation
    ///   does not fit.
    public func negated() throws(ModelError) -> Money {
        guard minorUnits != .min else { throw .overflow(operation: "-(\(minorUnits) minor units)") }
        return Money(minorUnits: -minorUnits, currency: currency)
    }

    /// Sums amounts that must all be in `currency`.
    /// - Throws: ``ModelError/currencyMismatch(_:_:)`` or ``ModelError/overflow(operation:)``.
    public static func sum(_ amounts: some Sequence<Money>, currency: Currency) throws(ModelError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts { total = try total.adding(amount) }
        return total
    }

    /// Compares two amounts of the same currency.
    /// - Returns: whether `self` is smaller than `other`.
    /// - Throws: ``ModelError/currencyMismatch(_:_:)``.
    public func isLess(than other: Money) throws(ModelError) -> Bool {
        try requireSameCurrency(other)
        return minorUnits < other.minorUnits
    }

    private func requireSameCurrency(_ other: Money) throws(ModelError) {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
    }
}
