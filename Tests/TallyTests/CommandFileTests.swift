import Foundation
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

@Suite("Recorded command files")
struct CommandFileTests {
    static var exampleURL: URL { RepositoryFiles.householdExample }

    /// Applies every command of the example, one `execute` per line, and returns the ledger.
    static func apply(_ commands: [Command], label: String) async throws -> TestLedger {
        let test = try await TestLedger.make(label)
        for (index, command) in commands.enumerated() {
            do {
                try await test.ledger.execute(command)
            } catch {
                Issue.record("command \(index + 1) (\(command.action)) was rejected: \(error)")
                throw error
            }
        }
        return test
    }

    static func holdsPersonalText(_ tag: UInt32) -> Bool {
        [EventTag.householdCreated, .memberAdded, .personAdded, .transactionRecorded, .transactionEdited, .templateCreated,
         .templateActivated, .transferRecorded, .groupExpenseRecorded, .templateEdited, .templateProfileSet, .attachmentAdded].map(\.rawValue).contains(tag)
    }

    @Test("G3/G5, P1: the example command file gives identical events on two fresh ledgers; only the sealed personal texts differ")
    func exampleReplaysToIdenticalRecords() async throws {
        let text = try String(contentsOf: Self.exampleURL, encoding: .utf8)
        let commands = try CommandParser.parse(lines: text)
        #expect(commands.count >= 40)
        let first = try await Self.apply(commands, label: "example-a")
        let second = try await Self.apply(CommandParser.parse(lines: text), label: "example-b")
        try await first.ledger.close()
        try await second.ledger.close()
        let recordsA = try JournalReader.open(at: first.directory.appending("ledger").appending(LedgerDirectory.journalName)).records()
        let recordsB = try JournalReader.open(at: second.directory.appending("ledger").appending(LedgerDirectory.journalName)).records()
        #expect(recordsA.count == recordsB.count)
        // The events are identical (ids and times come from the file, G3/G5)...
        let ledgerB = try await second.reopen()
        let eventsB = try await ledgerB.events()
        try await ledgerB.close()
        let reopened = try await first.reopen()
        let eventsA = try await reopened.events()
        #expect(eventsA.map(\.event) == eventsB.map(\.event))
        #expect(eventsA.count == recordsA.count)
        // ...and so is every record without personal text, byte for byte; records with names
        // or notes differ, because each ledger seals them with its own random per-person keys.
        let plainA = recordsA.filter { !Self.holdsPersonalText($0.typeTag) }
        let plainB = recordsB.filter { !Self.holdsPersonalText($0.typeTag) }
        #expect(plainA == plainB)
        #expect(plainA.count < recordsA.count)
        let tags = Set(recordsA.map(\.typeTag))
        for tag in [EventTag.periodClosed, .commandUndone, .transactionEdited, .transactionRestored, .settlementRecorded,
                    .groupExpenseRecorded, .templateActivated, .exchangeRateSet, .balanceRecorded] {
            #expect(tags.contains(tag.rawValue), "the example exercises \(tag.eventName)")
        }
        let state = await reopened.state
        #expect(state.periods.lastClosed?.periodEnd == Scenario.date("2026-02-24"))
        try await reopened.close()
    }
}

@Suite("CommandParser")
struct CommandParserTests {
    let header = #""commandID":"0000000c-0000-4000-8000-000000000001","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-05T10:00:00.000Z""#

    @Test("Money is accepted as an object of minor units or as a string with a code")
    func moneyInBothForms() throws {
        let object = try CommandParser.parse(line: #"{"command":"recordBalance",\#(header),"walletID":"00000003-0000-4000-8000-000000000001","date":"2026-01-31","balance":{"minorUnits":1234,"currency":"CHF"}}"#)
        let string = try CommandParser.parse(line: #"{"command":"recordBalance",\#(header),"walletID":"00000003-0000-4000-8000-000000000001","date":"2026-01-31","balance":"CHF 12.34"}"#)
        #expect(object.action == string.action)
        #expect(object.recordedAt == (try Timestamp(iso8601: "2026-01-05T10:00:00.000Z")))
    }

    @Test("An unknown command is named")
    func unknownCommand() {
        #expect(throws: CommandParseError(code: .unknownCommand, field: "command", message: "'payRent' is not a command; see Docs/Commands.md for the list")) {
            try CommandParser.parse(line: #"{"command":"payRent",\#(header)}"#)
        }
    }

    @Test("A missing field and a bad value name the field")
    func missingAndBadFields() {
        do {
            _ = try CommandParser.parse(line: #"{"command":"setPayday",\#(header)}"#)
            Issue.record("accepted a command without its field")
        } catch {
            #expect(error.code == .missingField)
            #expect(error.field == "day")
        }
        do {
            _ = try CommandParser.parse(line: #"{"command":"recordBalance",\#(header),"walletID":"00000003-0000-4000-8000-000000000001","date":"2026-02-30","balance":"CHF 1"}"#)
            Issue.record("accepted February 30")
        } catch {
            #expect(error.code == .badValue)
            #expect(error.field == "date")
        }
        do {
            _ = try CommandParser.parse(line: #"{"command":"recordBalance",\#(header),"walletID":"00000003-0000-4000-8000-000000000001","date":"2026-02-03","balance":12.5}"#)
            Issue.record("accepted a floating-point amount")
        } catch {
            #expect(error.code == .badValue)
            #expect(error.field == "balance")
        }
    }

    @Test("Errors in a file carry the line number")
    func fileErrorsCarryLineNumbers() {
        let text = "// a comment\n\n{\"command\":\"closePeriod\",\(header)}\nnot json\n"
        do {
            _ = try CommandParser.parse(lines: text)
            Issue.record("accepted garbage")
        } catch {
            #expect(error.lineNumber == 4)
            #expect(error.code == .invalidJSON)
        }
    }
}

@Suite("Command documentation")
struct CommandDocumentationTests {
    @Test("Every command of the schema is documented in the Commands article (Sources/Tally/Tally.docc/Commands.md)")
    func everyCommandIsDocumented() throws {
        let url = RepositoryFiles.url("Sources/Tally/Tally.docc/Commands.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        for name in CommandParser.commandNames {
            #expect(text.contains("### `\(name)`"), "\(name) is not documented")
        }
        #expect(CommandParser.commandNames.count == 99)
    }
}
