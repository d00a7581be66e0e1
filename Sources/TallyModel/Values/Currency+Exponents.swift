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

    /// The number of decimal digits of the minor unit (G1): 2 for most currencies
    /// (CHF, EUR, USD, GBP, AUD...), 0 for currencies without a minor unit in use
    /// (JPY, KRW, ISK...), 3 for the dinars and a few others (BHD, KWD, OMR, JOD, TND, LYD, IQD).
    ///
    /// A code that is not in the table gets **2**, the most common exponent. The table is part of
    /// the stored format's meaning: changing an entry would change how recorded minor units read,
    /// so entries are only ever added for codes that were not in use before.
    public var minorUnitExponent: Int {
        Currency.zeroDecimalCodes.contains(packed) ? 0 : Currency.threeDecimalCodes.contains(packed) ? 3 : 2
    }

    /// `10^minorUnitExponent`: how many minor units make one major unit.
    public var minorUnitsPerMajorUnit: Int64 {
        switch minorUnitExponent {
        case 0: 1
        case 3: 1000
        default: 100
        }
    }

    private static let zeroDecimalCodes: Set<UInt32> = packedSet(
        ["JPY", "KRW", "ISK", "CLP", "VND", "PYG", "UGX", "XAF", "XOF", "XPF", "RWF", "KMF",
         "GNF", "DJF", "BIF", "VUV"])
    private static let threeDecimalCodes: Set<UInt32> = packedSet(
        ["BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD"])

    private static func packedSet(_ codes: [String]) -> Set<UInt32> {
        Set(codes.map { code in code.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })
    }
}
