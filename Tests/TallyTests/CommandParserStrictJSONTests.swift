import Foundation
import Tally
import TallyModel
import Testing

/// G1 and G6 at the parser (Sources/Tally/Tally.docc/Commands.md, "Strict JSON"): command lines are strict RFC 8259
/// JSON read from their bytes. Money is exact integer minor units (never through `Double`);
/// duplicate keys, trailing commas, invalid UTF-8 and deep nesting are typed errors with the
/// line and byte column.
@Suite("CommandParser strict JSON")
struct CommandParserStrictJSONTests {
    static let header = #""commandID":"0000000c-0000-4000-8000-000000000001","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-05T10:00:00.000Z""#

    /// A recordTransaction line whose amount's `minorUnits` is `literal` (as written).
    static func expense(minorUnits literal: String, extra: String = "") -> String {
        #"{"command":"recordTransaction",\#(header),"transactionID":"00000005-0000-4000-8000-000000000001","kind":"expense","amount":{"minorUnits":\#(literal),"currency":"CHF"},"walletID":"00000003-0000-4000-8000-000000000001","categoryID":"00000004-0000-4000-8000-000000000001","date":"2026-01-05"\#(extra)}"#
    }

    func failure(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> CommandParseError? {
        do {
            let parsed = try CommandParser.parse(lineBytes: line)
            Issue.record("accepted \(parsed)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    func failure(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> CommandParseError? {
        failure(Array(line.utf8), sourceLocation: sourceLocation)
    }

    func amount(_ command: Command) -> Money? {
        guard case .recordTransaction(_, let entry) = command.action else { return nil }
        return entry.amount
    }

    @Test("G1: money minorUnits is parsed exactly from the literal: 2400 and Int64.max are exact")
    func integerMinorUnitsAreExact() throws {
        #expect(amount(try CommandParser.parse(line: Self.expense(minorUnits: "2400")))?.minorUnits == 2400)
        // 9223372036854775807 is not representable as a Double; parsed exactly it round-trips.
        let largest = try CommandParser.parse(line: Self.expense(minorUnits: "9223372036854775807"))
        #expect(amount(largest)?.minorUnits == Int64.max)
    }

    @Test("G1: a non-integer minorUnits (0.99999999999999999, 1.0, 1e2, 100e-2, 2^63) is badValue naming the field, never rounded through Double")
    func nonIntegerMinorUnitsAreRefused() {
        for literal in ["0.99999999999999999", "1.0", "1e2", "100e-2", "1E+2", "9223372036854775808", "-9223372036854775809"] {
            let error = failure(Self.expense(minorUnits: literal))
            #expect(error?.code == .badValue, "\(literal): \(String(describing: error))")
            #expect(error?.field == "amount.minorUnits", "\(literal)")
            #expect(error?.message.contains(literal) == true, "\(literal): \(String(describing: error))")
        }
    }

    @Test("G6: number literals outside RFC 8259 (leading zero, bare '-', '.5', '+1', -0) are invalidJSON with a column")
    func malformedNumbersAreRefused() {
        for literal in ["012", "-", ".5", "+1", "1.", "1e", "-0", "NaN", "Infinity"] {
            let error = failure(Self.expense(minorUnits: literal))
            #expect(error?.code == .invalidJSON, "\(literal): \(String(describing: error))")
            #expect(error?.column != nil, "\(literal)")
        }
    }

    @Test("G6: a key twice in one object is duplicateKey naming the key and its column, at the top level and nested")
    func duplicateKeysAreRefused() throws {
        let line = Self.expense(minorUnits: "2400", extra: #","kind":"income""#)
        let error = failure(line)
        #expect(error?.code == .duplicateKey)
        #expect(error?.field == "kind")
        let secondKind = try #require(line.range(of: #""kind":"income""#))
        #expect(error?.column == line.utf8.distance(from: line.utf8.startIndex, to: secondKind.lowerBound) + 1)
        let nested = Self.expense(minorUnits: #"2400,"minorUnits":1"#)
        #expect(failure(nested)?.code == .duplicateKey)
        #expect(failure(nested)?.field == "minorUnits")
    }

    @Test("G6: trailing commas in objects and arrays are invalidJSON")
    func trailingCommasAreRefused() {
        #expect(failure(Self.expense(minorUnits: "2400", extra: ",")).map(\.code) == .invalidJSON)
        #expect(failure(Self.expense(minorUnits: "2400", extra: #","tags":["a",]"#)).map(\.code) == .invalidJSON)
        #expect(failure(Self.expense(minorUnits: "2400,")).map(\.code) == .invalidJSON)
    }

    @Test("G6: invalid UTF-8 (a stray continuation byte, an overlong '/', a surrogate, 0xFF) is invalidUTF8 at its column, never U+FFFD")
    func invalidUTF8IsRefusedWithColumn() throws {
        let prefix = Array(Self.expense(minorUnits: "2400", extra: #","note":"caf"#).utf8)
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF]] {
            let line = prefix + bad + Array(#""}"#.utf8)
            let error = failure(line)
            #expect(error?.code == .invalidUTF8, "\(bad): \(String(describing: error))")
            #expect(error?.column == prefix.count + 1, "\(bad)")
        }
        // Valid multi-byte UTF-8 and escapes (a surrogate pair) read as the characters they are.
        let valid = try CommandParser.parse(line: Self.expense(minorUnits: "2400", extra: #","note":"café \ud83d\ude00 ☕""#))
        guard case .recordTransaction(_, let entry) = valid.action else { return }
        #expect(entry.note == "café 😀 ☕")
        #expect(failure(Self.expense(minorUnits: "2400", extra: #","note":"\ud83d""#))?.code == .invalidJSON)
    }

    @Test("G6: a file with invalid UTF-8 on line 3 fails naming line 3 and the column")
    func invalidUTF8InFileNamesTheLine() {
        let good = Array(Self.expense(minorUnits: "2400").utf8)
        let bad = Array(Self.expense(minorUnits: "2400", extra: #","note":""#).utf8) + [0xFE] + Array(#""}"#.utf8)
        let file = Array("// comment\n".utf8) + good + [0x0A] + bad + [0x0A]
        do {
            _ = try CommandParser.parse(bytes: file)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.code == .invalidUTF8)
            #expect(error.lineNumber == 3)
            #expect(error.column == bad.count - 2)
            #expect(error.description.hasPrefix("line 3, column \(bad.count - 2): invalidUTF8"))
        }
    }

    @Test("G6 (STYLE 7): nesting deeper than 32 is nestingTooDeep, not a stack overflow")
    func deepNestingIsRefused() {
        // 100000 levels fit in a line: refused at level 33, before the recursion goes deep.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(Self.expense(minorUnits: "2400", extra: #","tags":\#(deep)"#)).map(\.code) == .nestingTooDeep)
        let tooDeep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(failure(Self.expense(minorUnits: "2400", extra: #","tags":\#(tooDeep)"#)).map(\.code) == .nestingTooDeep)
    }

    @Test("G6: other RFC 8259 violations (comments, single quotes, control characters, bad escapes, text after the value) are invalidJSON")
    func otherSyntaxErrorsAreRefused() {
        let base = Self.expense(minorUnits: "2400")
        for line in [
            base + " x", base + "}", "'" + base, String(base.dropLast()) + ",\"note\":\"a\tb\"}",
            String(base.dropLast()) + #","note":"\x41"}"#, String(base.dropLast()) + " // c}", "[1,2]", "",
        ] {
            #expect(failure(line)?.code == .invalidJSON, "\(line.prefix(40))")
        }
    }

    @Test("G6: CRLF line ends and whitespace around a value are JSON whitespace and parse")
    func crlfAndWhitespaceParse() throws {
        let text = "  " + Self.expense(minorUnits: "2400") + " \r\n\r\n\t// comment\r\n"
        #expect(try CommandParser.parse(lines: text).count == 1)
    }
}
