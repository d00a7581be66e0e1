import Foundation
import Tally
import TallyModel
import TallyTestSupport
import Testing

/// G6 at the parser: a field the command does not have is a typed `unknownField` error naming
/// the field (with its path) and the command, never silently dropped; a line is at most
/// `CommandParser.lineBytesMax` bytes (`lineTooLong`).
@Suite("CommandParser unknown fields and line length")
struct CommandParserFieldTests {
    let header = #""commandID":"0000000c-0000-4000-8000-000000000001","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-05T10:00:00.000Z""#
    var expense: String {
        #"{"command":"recordTransaction",\#(header),"transactionID":"00000005-0000-4000-8000-000000000001","kind":"expense","amount":{"minorUnits":2400,"currency":"CHF"},"walletID":"00000003-0000-4000-8000-000000000001","categoryID":"00000004-0000-4000-8000-000000000001","date":"2026-01-05""#
    }

    func expectUnknown(_ line: String, field: String, command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let parsed = try CommandParser.parse(line: line)
            Issue.record("accepted \(parsed) with the unknown field \(field)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .unknownField, "\(error)", sourceLocation: sourceLocation)
            #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains("\"\(field)\"") && error.message.contains(command), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("G6: a misspelt optional field (\"shard\" for \"shared\", \"notes\" for \"note\") is unknownField naming the field and the command")
    func misspeltOptionalField() throws {
        expectUnknown(expense + #","shard":true}"#, field: "shard", command: "recordTransaction")
        expectUnknown(expense + #","notes":"rent"}"#, field: "notes", command: "recordTransaction")
        // The correctly spelt fields parse, and mean what they say.
        let parsed = try CommandParser.parse(line: expense + #","shared":true,"note":"rent"}"#)
        guard case .recordTransaction(_, let entry) = parsed.action else {
            Issue.record("parsed as \(parsed.action)")
            return
        }
        #expect(entry.isShared)
        #expect(entry.note == "rent")
    }

    @Test("G6: an unknown field inside a nested object is named with its path (amount.cents, split.amounts, covers[0].groupExpense)")
    func unknownNestedField() {
        expectUnknown(
            expense.replacingOccurrences(of: #""currency":"CHF"}"#, with: #""currency":"CHF","cents":5}"#) + "}",
            field: "amount.cents", command: "recordTransaction")
        expectUnknown(
            #"{"command":"recordGroupExpense",\#(header),"expenseID":"0000000a-0000-4000-8000-000000000001","groupID":"00000009-0000-4000-8000-000000000001","paidBy":"00000002-0000-4000-8000-000000000001","amount":"CHF 10","date":"2026-01-05","split":{"kind":"equal","people":["00000002-0000-4000-8000-000000000001"],"amounts":[]}}"#,
            field: "split.amounts", command: "recordGroupExpense")
        expectUnknown(
            #"{"command":"recordSettlement",\#(header),"settlementID":"00000008-0000-4000-8000-000000000001","from":"00000002-0000-4000-8000-000000000002","to":"00000002-0000-4000-8000-000000000001","amount":"CHF 5","date":"2026-01-05","covers":[{"transaction":"00000005-0000-4000-8000-000000000001","groupExpense":"0000000a-0000-4000-8000-000000000001"}]}"#,
            field: "covers[0].groupExpense", command: "recordSettlement")
    }

    @Test("G6: the envelope fields, null optional fields and // comment lines still parse")
    func envelopeAndCommentsStillParse() throws {
        let text = "// a comment with \"shard\": true\n\n" + expense + #","note":null,"tags":null}"# + "\n   // indented comment\n"
        let commands = try CommandParser.parse(lines: text)
        #expect(commands.count == 1)
        #expect(commands.first?.commandID == (try Identifier(parsing: "0000000c-0000-4000-8000-000000000001")))
    }

    @Test("G6: Sources/TallyCLI/Demo/household.jsonl parses without unknown fields")
    func exampleFileParses() throws {
        let url = RepositoryFiles.householdExample
        let commands = try CommandParser.parse(lines: try String(contentsOf: url, encoding: .utf8))
        #expect(commands.count == 76)
    }

    @Test("G6: a line of lineBytesMax bytes parses; one byte more is lineTooLong naming the limit")
    func lineLengthLimit() throws {
        let line = expense + "}"
        let padding = CommandParser.lineBytesMax - line.utf8.count
        let atLimit = String(line.dropLast()) + String(repeating: " ", count: padding) + "}"
        #expect(atLimit.utf8.count == CommandParser.lineBytesMax)
        #expect(try CommandParser.parse(line: atLimit).commandID == (try Identifier(parsing: "0000000c-0000-4000-8000-000000000001")))
        do {
            _ = try CommandParser.parse(line: String(line.dropLast()) + String(repeating: " ", count: padding + 1) + "}")
            Issue.record("accepted a line over the limit")
        } catch {
            #expect(error.code == .lineTooLong)
            #expect(error.message.contains("\(CommandParser.lineBytesMax)"))
        }
    }
}
