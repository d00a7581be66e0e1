@testable import TallyInterchange
import TallyModel
import Testing

@Suite("CSV amounts")
struct CSVAmountTests {
    @Test("plain numbers read as signed minor units", arguments: [
        ("-12.50", Currency.chf, Int64(-1250)), ("12,5", .chf, 1250), ("+3", .chf, 300), ("1'234.50", .chf, 123_450),
        ("CHF -5", .chf, -500), ("1,234.5", .chf, 123_450), (".5", .chf, 50), ("7", .jpy, 7), ("1.234", .bhd, 1234),
        ("92233720368547758.07", .chf, Int64.max), ("-92233720368547758.07", .chf, -Int64.max),
    ])
    func plainNumbersReadAsMinorUnits(_ text: String, _ currency: Currency, _ expected: Int64) {
        #expect(CSVImporter.minorUnits(text, currency: currency) == expected)
    }

    /// The first two once trapped on Int64 overflow in `scaled + fraction` (found while writing
    /// the CSV fuzz target, reproduced through it: Fuzz/Regressions/csv-import); a sign after the
    /// decimal mark was read as a negative fraction ("1.-5" as 0.95).
    @Test("numbers that do not fit or carry a second sign are not amounts", arguments: [
        "92233720368547758.08", "-92233720368547758.99", "9223372036854775808", "1.-5", "-+5", "1.+5", "5.", "1.2.3", "1.234",
    ])
    func malformedOrOverflowingNumbersAreRejected(_ text: String) {
        #expect(CSVImporter.minorUnits(text, currency: .chf) == nil)
    }
}
