extension Currency {
    /// The ISO 4217 table: every active code of a circulating currency with the exponent of
    /// its minor unit as the standard gives it (ISO 4217 list one, as amended up to 2025).
    /// **The one place** in Tally where the currencies and their exponents live (G1).
    ///
    /// Left out on purpose: withdrawn codes (HRK, SLL, ZWL...), fund and unit-of-account codes
    /// (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW, XDR, XSU, XUA), precious metals, bond-market
    /// units and the testing codes (XAU, XAG, XPD, XPT, XBA-XBD, XTS, XXX): none is a household's
    /// money, and the metals have no minor unit. Commands naming them are refused
    /// (``Currency/init(iso4217:)``).
    ///
    /// Entries are only added, never changed: an exponent is part of how recorded minor units
    /// read (Docs/Events.md).
    static let iso4217MinorUnitExponents: [UInt32: Int] = {
        let zero = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV",
                    "XAF", "XOF", "XPF"]
        let three = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
        let two = [
            "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BMD",
            "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CNY", "COP", "CRC", "CUP",
            "CVE", "CZK", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP",
            "GMD", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IRR", "JMD", "KES", "KGS", "KHR",
            "KPW", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP",
            "MRU", "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN",
            "PGK", "PHP", "PKR", "PLN", "QAR", "RON", "RSD", "RUB", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP",
            "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TOP", "TRY", "TTD", "TWD",
            "TZS", "UAH", "USD", "UYU", "UZS", "VED", "VES", "WST", "XCD", "XCG", "YER", "ZAR", "ZMW", "ZWG",
        ]
        var table: [UInt32: Int] = [:]
        for (codes, exponent) in [(zero, 0), (two, 2), (three, 3)] {
            for code in codes { table[code.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }] = exponent }
        }
        return table
    }()

    /// The exponent given to a code that is not in the ISO 4217 table: **only** for events
    /// recorded before commands were limited to ISO 4217 (such journals still replay, with the
    /// exponent they were recorded with). No command can introduce such a code any more.
    public static let legacyMinorUnitExponent = 2

    /// Whether the code is in Tally's ISO 4217 table (active circulating currencies).
    public var isISO4217: Bool { Currency.iso4217MinorUnitExponents[packed] != nil }

    /// Creates a currency that commands may use: an active ISO 4217 code.
    /// - Parameter code: e.g. `"CHF"`.
    /// - Throws: ``ModelError/invalidCurrencyCode(_:)`` unless three letters A-Z;
    ///   ``ModelError/unknownCurrency(_:)`` when the letters are not an active ISO 4217 code
    ///   (`"BTC"`, `"ZZZ"`, a withdrawn code).
    public init(iso4217 code: String) throws(ModelError) {
        try self.init(code)
        guard isISO4217 else { throw .unknownCurrency(code) }
    }
}
