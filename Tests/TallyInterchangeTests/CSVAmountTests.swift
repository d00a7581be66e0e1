@testable import TallyInterchange
import TallyModel
import Testing

@Suite("CSV amounts")
struct CSVAmountTests {
    static func minorUnits(_ text: String, _ currency: Currency) -> Int64? {
        try? CSVAmount.minorUnits(text, currency: currency)
    }

    @Test("plain numbers read as signed minor units", arguments: [
        ("-12.50", Currency.chf, Int64(-1250)), ("12,5", .chf, 1250), ("+3", .chf, 300), ("1'234.50", .chf, 123_450),
        ("CHF -5", .chf, -500), ("1,234.5", .chf, 123_450), (".5", .chf, 50), ("7", .jpy, 7), ("1.234", .bhd, 1234),
        ("92233720368547758.07", .chf, Int64.max), ("-92233720368547758.07", .chf, -Int64.max),
        ("1.234.567,89", .chf, 123_456_789), ("1 234,50", .chf, 123_450), ("1\u{00A0}234,50", .chf, 123_450),
        ("1,234,567", .jpy, 1_234_567), ("1234,567", .bhd, 1_234_567), ("0,234", .bhd, 234), ("CHF 1'000", .chf, 100_000),
    ])
    func plainNumbersReadAsMinorUnits(_ text: String, _ currency: Currency, _ expected: Int64) {
        #expect(Self.minorUnits(text, currency) == expected)
    }

    /// The first two once trapped on Int64 overflow in `scaled + fraction` (found while writing
    /// the CSV fuzz target, reproduced through it: Fuzz/Regressions/csv-import); a sign after the
    /// decimal mark was read as a negative fraction ("1.-5" as 0.95).
    @Test("numbers that do not fit or carry a second sign are not amounts", arguments: [
        "92233720368547758.08", "-92233720368547758.99", "9223372036854775808", "1.-5", "-+5", "1.+5", "5.", "1.2.3", "1.234",
    ])
    func malformedOrOverflowingNumbersAreRejected(_ text: String) {
        #expect(Self.minorUnits(text, .chf) == nil)
    }

    /// Issue item 16, class "an ambiguous amount imports as some other amount": each of these
    /// was read as a number before ("1,2,3" as 12.30).
    @Test("ambiguous amounts are refused with the reason", arguments: [
        ("1,2,3", "group the digits by three"), ("12,34.50", "group the digits by three"), ("1,234,56", "group the digits by three"),
        ("1.234,5.6", "more than one decimal mark"), ("1,234'567.00", "mixed thousands separators"), ("1.2,3", "group the digits by three"),
        ("1,234", "a thousands separator or a decimal comma"), ("12.345", "3 decimals, but CHF has 2"), ("5-", "a sign may only come first"),
        ("- 5", "starts with a digit"), ("--5", "a sign may only come first"), ("(5)", "\"(\" is not part"), ("EUR 5", "\"E\" is not part"),
        ("'123", "starts with a digit"), ("123'", "group the digits by three"), ("", "no digits"), ("1e3", "\"e\" is not part"),
        ("٣", "is not part"), ("99999999999999999999", "too large"),
    ])
    func ambiguousAmountsAreRefused(_ text: String, _ reason: String) {
        #expect(throws: CSVAmount.Refusal.self) { try CSVAmount.minorUnits(text, currency: .chf) }
        do { _ = try CSVAmount.minorUnits(text, currency: .chf) } catch {
            #expect(error.reason.contains(reason), "\(text): \(error.reason)")
        }
    }

    @Test("a lone comma before three digits is ambiguous in a three-decimal currency; a lone point is the decimal mark (the CSV export writes it)")
    func loneCommaBeforeThreeDigitsIsAmbiguousInThreeDecimalCurrencies() {
        #expect(Self.minorUnits("1,234", .bhd) == nil)
        #expect(Self.minorUnits("1.234", .bhd) == 1234)
    }
}
