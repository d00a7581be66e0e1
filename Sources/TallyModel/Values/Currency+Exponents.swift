extension Currency {
    /// Swiss franc.
    public static let chf = Currency(_packedASCII: "CHF")
    /// Euro.
    public static let eur = Currency(_packedASCII: "EUR")
    /// US dollar.
    public static let usd = Currency(_packedASCII: "USD")
    /// Pound sterling.
    public static let gbp = Currency(_packedASCII: "GBP")
    /// Australian dollar.
    public static let aud = Currency(_packedASCII: "AUD")
    /// Japanese yen (no minor unit).
    public static let jpy = Currency(_packedASCII: "JPY")
    /// Bahraini dinar (three decimals).
    public static let bhd = Currency(_packedASCII: "BHD")

    /// Builds one of the constants above from a literal known to be valid.
    private init(_packedASCII code: StaticString) {
        var packed: UInt32 = 0
        code.withUTF8Buffer { buffer in
            precondition(buffer.count == 3, "currency constants have three letters")
            for byte in buffer { packed = packed << 8 | UInt32(byte) }
        }
        self.packed = packed
    }

    /// The number of decimal digits of the minor unit (G1), from the ISO 4217 table
    /// (``isISO4217``): 2 for most currencies, 0 for JPY, KRW, ISK..., 3 for the dinars.
    ///
    /// A code outside the table can only come from an event recorded before commands were
    /// limited to ISO 4217; it reads with ``legacyMinorUnitExponent`` (2), the exponent it was
    /// recorded with, so old journals replay unchanged.
    public var minorUnitExponent: Int {
        Currency.iso4217MinorUnitExponents[packed] ?? Currency.legacyMinorUnitExponent
    }

    /// `10^minorUnitExponent`: how many minor units make one major unit.
    public var minorUnitsPerMajorUnit: Int64 {
        var result: Int64 = 1
        for _ in 0..<minorUnitExponent { result *= 10 }
        return result
    }
}
