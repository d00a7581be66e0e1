import Foundation
@testable import TallyInterchange
import Testing

/// Issue item 16, class "a CSV file is read as something it does not say": the strict RFC 4180
/// reader refuses what it would otherwise guess at, naming the line.
@Suite("CSV parsing")
struct CSVParsingTests {
    static func refusal(_ bytes: [UInt8]) -> InterchangeError? {
        do { _ = try CSVTable.parse(bytes: bytes); return nil } catch { return error }
    }

    @Test("a leading UTF-8 byte order mark is dropped, so the first column is found")
    func byteOrderMarkIsDropped() throws {
        let table = try CSVTable.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("date,amount\n2026-01-01,5\n".utf8))
        #expect(table.header == ["date", "amount"])
        #expect(try CSVTable.parse("\u{FEFF}date;amount\n2026-01-01;5\n").header == ["date", "amount"])
    }

    @Test("an unbalanced quote is refused naming the line it opens on, instead of swallowing the rows after it")
    func unbalancedQuoteIsRefusedWithItsLine() {
        let error = Self.refusal(Array("date,amount,note\n2026-01-01,5,ok\n2026-01-02,5,\"open\n2026-01-03,7,next\n".utf8))
        #expect(error?.code == "csvQuoteUnbalanced")
        #expect(error?.message.contains("line 3") == true, "\(String(describing: error))")
    }

    @Test("a quote inside an unquoted field or text after a closing quote is refused naming the line", arguments: [
        "date,amount,note\n2026-01-01,5,a\"b\n", "date,amount,note\n2026-01-01,5,\"a\"b\n",
    ])
    func misplacedQuoteIsRefusedWithItsLine(_ text: String) {
        let error = Self.refusal(Array(text.utf8))
        #expect(error?.code == "csvQuoteMisplaced")
        #expect(error?.message.contains("line 2") == true, "\(String(describing: error))")
    }

    @Test("invalid UTF-8 is refused naming the line, not replaced by U+FFFD")
    func invalidUTF8IsRefusedWithItsLine() {
        let error = Self.refusal(Array("date,amount,note\n2026-01-01,5,ok\n2026-01-02,5,Caf".utf8) + [0xE9] + Array("\n".utf8))
        #expect(error?.code == "csvInvalidUTF8")
        #expect(error?.message.contains("line 3") == true, "\(String(describing: error))")
    }

    @Test("quoted fields keep delimiters, doubled quotes and line breaks; rows know the line they start on; CRLF is one break")
    func quotedFieldsAndRowLines() throws {
        let table = try CSVTable.parse("date,amount,note\r\n2026-01-01,\"1,50\",\"two\r\nlines \"\"quoted\"\"\"\r\n\r\n2026-01-02,5,x\r\n")
        #expect(table.rows == [["2026-01-01", "1,50", "two\r\nlines \"quoted\""], ["2026-01-02", "5", "x"]])
        #expect(table.rowLines == [2, 5])
    }

    @Test("a row with another number of fields is named in csvDelimiterUnknown")
    func rowWithOtherFieldCountIsNamed() {
        let error = Self.refusal(Array("date,amount,note\n2026-01-01,5,ok\n2026-01-02,5\n".utf8))
        #expect(error?.code == "csvDelimiterUnknown")
        #expect(error?.message.contains("line 3 has 2 fields") == true, "\(String(describing: error))")
    }
}
