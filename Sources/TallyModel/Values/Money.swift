/// An amount of money: a whole number of minor units (cents, Rappen, yen) in one currency (G1).
///
/// `Money` never uses floating point. Arithmetic is checked: an overflow or a currency mismatch
/// throws ``ModelError`` instead of wrapping or trapping (see `Money+Arithmetic.swift`).
public struct Money: Hashable, Sendable {
    /// The amount in minor units of ``currency``; `1234` CHF minor units is CHF 12.34.
    public var minorUnits: Int64
    /// The currency of the amount.
    public var currency: Currency

    /// Creates an amount from minor units.
    /// - Parameters:
    ///   - minorUnits: the amount in the currency's minor unit (cents for EUR, yen for JPY).
    ///   - currency: the currency.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// A zero amount in `currency`.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// Whether the amount is zero.
    public var isZero: Bool { minorUnits == 0 }
    /// Whether the amount is below zero.
    public var isNegative: Bool { minorUnits < 0 }
    /// Whether the amount is above zero.
    public var isPositive: Bool { minorUnits > 0 }
}

extension Money: CustomStringConvertible {
    /// The ``formatted()`` text, e.g. `CHF 1'234.50`.
    public var description: String { formatted() }
}
