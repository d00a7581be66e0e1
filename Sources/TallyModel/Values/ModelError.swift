/// An error raised by a TallyModel value type: invalid input text, arithmetic that would
/// overflow, mixing currencies, or inputs that break a domain rule.
///
/// Every case has a stable ``code`` (for logs and host apps) and a ``message`` a user can act on.
/// Rule ids from Docs/Domain.md (G1, G2, S3...) are named where they apply.
public enum ModelError: Error, Hashable, Sendable {
    /// Arithmetic on money or rates would leave the `Int64` range (G1). Names the operation.
    case overflow(operation: String)
    /// Two amounts in different currencies were combined (G1).
    case currencyMismatch(Currency, Currency)
    /// The text is not a valid ISO 4217 code (three letters A-Z).
    case invalidCurrencyCode(String)
    /// Three letters that are not an active ISO 4217 currency (`BTC`, `ZZZ`, a withdrawn code)
    /// where a command needs one (G1, `Currency.init(iso4217:)`).
    case unknownCurrency(String)
    /// The text is not an amount of money; `reason` says why.
    case invalidAmount(text: String, reason: String)
    /// The text has more decimals than the currency's minor unit allows.
    case tooManyDecimals(text: String, currency: Currency)
    /// The text or components are not a valid civil date, year-month or timestamp.
    case invalidDate(text: String, reason: String)
    /// The text is not a canonical 8-4-4-4-12 hexadecimal UUID.
    case invalidIdentifier(String)
    /// A ratio outside 0...10000 basis points (G2, S1).
    case invalidRatio(basisPoints: Int64)
    /// An exchange rate that is zero, negative or between the same currency (G2, N3).
    case invalidExchangeRate(reason: String)
    /// Allocation inputs that cannot be split (no weights, negative weight, duplicates) (S3).
    case invalidAllocation(reason: String)
    /// The text is not a SHA-256 digest of 64 hexadecimal digits (T6, ``ContentHash``).
    case invalidContentHash(String)

    /// A stable, machine-readable code for this error.
    public var code: String {
        switch self {
        case .overflow: "overflow"
        case .currencyMismatch: "currencyMismatch"
        case .invalidCurrencyCode: "invalidCurrencyCode"
        case .unknownCurrency: "unknownCurrency"
        case .invalidAmount: "invalidAmount"
        case .tooManyDecimals: "tooManyDecimals"
        case .invalidDate: "invalidDate"
        case .invalidIdentifier: "invalidIdentifier"
        case .invalidRatio: "invalidRatio"
        case .invalidExchangeRate: "invalidExchangeRate"
        case .invalidAllocation: "invalidAllocation"
        case .invalidContentHash: "invalidContentHash"
        }
    }

    /// A message a user or developer can act on.
    public var message: String {
        switch self {
        case .overflow(let operation):
            "G1: \(operation) overflows the 64-bit minor-unit range"
        case .currencyMismatch(let left, let right):
            "G1: cannot combine \(left.code) with \(right.code)"
        case .invalidCurrencyCode(let text):
            "'\(text)' is not an ISO 4217 currency code (three letters A-Z)"
        case .unknownCurrency(let code):
            "G1: '\(code)' is not an active ISO 4217 currency code; use one of the ISO 4217 list (e.g. CHF, EUR, USD, JPY) - see Docs/Commands.md, Currencies"
        case .invalidAmount(let text, let reason):
            "'\(text)' is not an amount: \(reason)"
        case .tooManyDecimals(let text, let currency):
            "'\(text)' has more than \(currency.minorUnitExponent) decimals for \(currency.code)"
        case .invalidDate(let text, let reason):
            "'\(text)' is not a valid date: \(reason)"
        case .invalidIdentifier(let text):
            "'\(text)' is not a UUID of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
        case .invalidRatio(let basisPoints):
            "G2: \(basisPoints) bp is outside 0...10000"
        case .invalidExchangeRate(let reason):
            "G2: invalid exchange rate: \(reason)"
        case .invalidAllocation(let reason):
            "S3: cannot allocate: \(reason)"
        case .invalidContentHash(let text):
            "'\(text)' is not a SHA-256 content hash: expected 64 hexadecimal digits"
        }
    }
}

extension ModelError: CustomStringConvertible {
    /// The ``code`` followed by the ``message``.
    public var description: String { "\(code): \(message)" }
}
