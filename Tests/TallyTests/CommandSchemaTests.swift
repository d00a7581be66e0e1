import Foundation
import Testing
@testable import Tally
import TallyModel
import TallyTestSupport

/// Issue 30, "typed commands as the first way in": the Swift actions (`CommandAction`) are the
/// one definition of the JSON schema (`@CommandSchema` writes the parser and the writer from
/// their cases), so these tests hold the two forms to each other and the catalog to both.
@Suite("Command schema: typed and JSON forms")
struct CommandSchemaTests {
    /// Every command's fields as the catalog's "Fields:" paragraph lists them, up to its first
    /// sentence's end: backticked names outside parentheses (other commands' names left out), optional when followed by `?` or
    /// by a parenthesis that gives a default or says optional or absent.
    static func documentedFields() throws -> [String: [(name: String, isOptional: Bool)]] {
        let text = try String(contentsOf: RepositoryFiles.url("Sources/Tally/Tally.docc/Commands.md"), encoding: .utf8)
        let commands = Set(CommandParser.commandNames)
        var result: [String: [(name: String, isOptional: Bool)]] = [:]
        var current: String?
        var paragraph: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### `") {
                current = line.dropFirst(5).split(separator: "`").first.map(String.init)
            } else if line.hasPrefix("Fields:") {
                paragraph = String(line.dropFirst(7))
            } else if let text = paragraph, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                paragraph = text + " " + line
            } else if let text = paragraph, let name = current {
                result[name] = fields(in: text, commands: commands)
                paragraph = nil
            }
        }
        return result
    }

    static func fields(in paragraph: String, commands: Set<String>) -> [(name: String, isOptional: Bool)] {
        var fields: [(name: String, isOptional: Bool)] = []
        let characters = Array(paragraph)
        var index = 0
        var depth = 0
        while index < characters.count {
            let character = characters[index]
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if depth == 0, character == ".", index + 1 == characters.count || characters[index + 1] == " " { break }
            guard character == "`" else {
                index += 1
                continue
            }
            guard let close = characters[(index + 1)...].firstIndex(of: "`") else { break }
            let token = String(characters[(index + 1)..<close])
            index = close + 1
            guard depth == 0, token.allSatisfy({ $0.isLetter }), !commands.contains(token) else { continue }
            var isOptional = false
            var next = index
            while next < characters.count, characters[next] == " " { next += 1 }
            if next < characters.count, characters[next] == "?" {
                isOptional = true
            } else if next < characters.count, characters[next] == "(" {
                var level = 0
                var end = next
                while end < characters.count {
                    if characters[end] == "(" { level += 1 } else if characters[end] == ")" { level -= 1 }
                    if level == 0 { break }
                    end += 1
                }
                let note = String(characters[next..<min(end, characters.count)])
                isOptional = ["default", "optional", "absent"].contains { note.contains($0) }
            }
            fields.append((token, isOptional))
        }
        return fields
    }

    @Test("the catalog lists every command's fields as the typed API has them: the same names, the same ones optional")
    func catalogMatchesTypedSchema() throws {
        let documented = try Self.documentedFields()
        #expect(CommandAction.schema.count == CommandParser.commandNames.count)
        for command in CommandAction.schema {
            let typed = command.jsonFields
            guard let listed = documented[command.name] else {
                Issue.record("\(command.name) has no Fields paragraph in the catalog")
                continue
            }
            #expect(listed.map(\.name).sorted() == typed.map(\.name).sorted(), "\(command.name): catalog \(listed.map(\.name)), typed \(typed.map(\.name))")
            for field in typed {
                guard let entry = listed.first(where: { $0.name == field.name }) else { continue }
                #expect(entry.isOptional == !field.isRequired,
                        "\(command.name).\(field.name): the catalog says \(entry.isOptional ? "optional" : "required"), the typed API \(field.isRequired ? "required" : "optional")")
            }
        }
    }

    @Test("the catalog names each command's Swift case beside its JSON, with the labels the typed API has (a DocC link the documentation build checks)")
    func catalogNamesEverySwiftCase() throws {
        let text = try String(contentsOf: RepositoryFiles.url("Sources/Tally/Tally.docc/Commands.md"), encoding: .utf8)
        for command in CommandAction.schema {
            let labels = command.fields.map { $0.name + ":" }.joined()
            let link = labels.isEmpty ? "``CommandAction/\(command.name)``" : "``CommandAction/\(command.name)(\(labels))``"
            #expect(text.contains("Swift: \(link)"), "\(command.name): the catalog has no line \"Swift: \(link)\"")
        }
    }

    @Test("G5, T1-T5: a typed command written as its JSON line reads back as the same command, for 3000 random commands of the model household")
    func typedCommandsRoundTripThroughJSON() throws {
        var generator = RandomCommandGenerator(seed: 30)
        var names: Set<String> = []
        for _ in 0..<3000 {
            let command = generator.next()
            names.insert(command.action.commandName)
            let line = command.jsonLine
            let parsed = try CommandParser.parse(line: line)
            #expect(parsed == command, "\(line)")
        }
        #expect(names.count >= 15, "the generator covered \(names.sorted())")
    }

    @Test("every line of the catalog's examples and of the demo household reads, is written back, and reads again as the same command; together they use every command")
    func recordedLinesRoundTrip() throws {
        let catalog = try String(contentsOf: RepositoryFiles.url("Sources/Tally/Tally.docc/Commands.md"), encoding: .utf8)
        let demo = try String(contentsOf: RepositoryFiles.url("Sources/TallyCLI/Demo/household.jsonl"), encoding: .utf8)
        let lines = catalog.split(separator: "\n").filter { $0.hasPrefix("{\"command\"") }.map(String.init)
            + demo.split(separator: "\n").filter { $0.hasPrefix("{") }.map(String.init)
        var names: Set<String> = []
        for line in lines {
            let command = try CommandParser.parse(line: line)
            names.insert(command.action.commandName)
            #expect(try CommandParser.parse(line: command.jsonLine) == command, "\(line)")
        }
        #expect(names == Set(CommandParser.commandNames), "without an example: \(Set(CommandParser.commandNames).subtracting(names).sorted())")
    }

    @Test("defaults: a line without its optional fields reads as the typed action with the Swift defaults (removeMember, createCategory, markGroupExpenseSettled, setIncomeSettings, setSplitRatio)")
    func absentFieldsTakeTheSwiftDefaults() throws {
        let header = #""commandID":"0000000c-0000-4000-8000-0000000000f1","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-02-01T08:00:00.000Z""#
        let person = try PersonID(parsing: "00000002-0000-4000-8000-000000000003")
        let category = try CategoryID(parsing: "00000004-0000-4000-8000-000000000009")
        func action(_ fields: String) throws -> CommandAction { try CommandParser.parse(line: "{\(header),\(fields)}").action }
        #expect(try action(#""command":"removeMember","personID":"00000002-0000-4000-8000-000000000003""#) == .removeMember(personID: person))
        #expect(try action(#""command":"createCategory","categoryID":"00000004-0000-4000-8000-000000000009","name":"Gifts","group":"expense""#)
            == .createCategory(categoryID: category, name: "Gifts", group: .expense))
        let expense = try GroupExpenseID(parsing: "00000009-0000-4000-8000-000000000001")
        #expect(try action(#""command":"markGroupExpenseSettled","expenseID":"00000009-0000-4000-8000-000000000001""#)
            == .markGroupExpenseSettled(expenseID: expense))
        #expect(try action(#""command":"setIncomeSettings","mode":"manual","monthlyIncome":"CHF 5000.00""#)
            == .setIncomeSettings(mode: .manual, monthlyIncome: Money(minorUnits: 500_000, currency: try Currency("CHF"))))
        if case .setIncomeSettings(_, _, let categories, let grace) = try action(#""command":"setIncomeSettings","mode":"auto","monthlyIncome":"CHF 1.00""#) {
            #expect(categories.isEmpty && grace == 3)
        } else {
            Issue.record("setIncomeSettings did not parse as setIncomeSettings")
        }
        #expect(try action(#""command":"setSplitRatio","ratios":[]"#) == .setSplitRatio(ratios: []))
        if case .setSplitRatio(let mode, _) = try action(#""command":"setSplitRatio","ratios":[]"#) { #expect(mode == .manual) }
    }

    @Test("the writer leaves out absent optionals and writes every field under its catalog name (recordTransfer, recordTransaction)")
    func writtenLinesUseTheCatalogNames() throws {
        let wallet = try WalletID(parsing: "00000003-0000-4000-8000-000000000001")
        let other = try WalletID(parsing: "00000003-0000-4000-8000-000000000002")
        let actor = try PersonID(parsing: "00000002-0000-4000-8000-000000000001")
        let transfer = Command(
            commandID: try CommandID(parsing: "0000000c-0000-4000-8000-000000000001"), actor: actor,
            recordedAt: try Timestamp(iso8601: "2026-01-12T08:00:00.000Z"),
            action: .recordTransfer(transferID: try TransferID(parsing: "00000006-0000-4000-8000-000000000001"), fromWalletID: wallet,
                                    toWalletID: other, amountSent: Money(minorUnits: 5000, currency: try Currency("CHF")),
                                    date: try LocalDate(iso: "2026-01-12")))
        #expect(transfer.jsonLine == #"{"command":"recordTransfer","commandID":"0000000c-0000-4000-8000-000000000001","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-01-12T08:00:00.000Z","transferID":"00000006-0000-4000-8000-000000000001","fromWalletID":"00000003-0000-4000-8000-000000000001","toWalletID":"00000003-0000-4000-8000-000000000002","amountSent":{"currency":"CHF","minorUnits":5000},"date":"2026-01-12"}"#)
    }

    static let header = #""commandID":"0000000c-0000-4000-8000-0000000000f1","actor":"00000002-0000-4000-8000-000000000001","recordedAt":"2026-02-01T08:00:00.000Z""#

    @Test("defaults of the field groups: a line without the optional fields of an entry, a goal or the alert settings reads as the Swift initializer with its defaults (payer the actor, shared false, no tags; no linked wallet; AlertSettingsSet.defaults)")
    func groupDefaultsAreTheInitializers() throws {
        func action(_ fields: String) throws -> CommandAction { try CommandParser.parse(line: "{\(Self.header),\(fields)}").action }
        let transaction = try TransactionID(parsing: "00000005-0000-4000-8000-000000000001")
        let wallet = try WalletID(parsing: "00000003-0000-4000-8000-000000000001")
        let category = try CategoryID(parsing: "00000004-0000-4000-8000-000000000001")
        let chf = try Currency("CHF")
        #expect(try action(#""command":"recordTransaction","transactionID":"00000005-0000-4000-8000-000000000001","kind":"expense","amount":"CHF 1.00","walletID":"00000003-0000-4000-8000-000000000001","categoryID":"00000004-0000-4000-8000-000000000001","date":"2026-02-01""#)
            == .recordTransaction(transactionID: transaction, entry: TransactionEntry(
                kind: .expense, amount: Money(minorUnits: 100, currency: chf), walletID: wallet, categoryID: category,
                date: try LocalDate(iso: "2026-02-01"))))
        let goal = try GoalID(parsing: "00000020-0000-4000-8000-000000000001")
        #expect(try action(#""command":"createGoal","goalID":"00000020-0000-4000-8000-000000000001","name":"Trip","target":"CHF 100.00""#)
            == .createGoal(goalID: goal, goal: GoalDefinition(name: "Trip", target: Money(minorUnits: 10_000, currency: chf))))
        #expect(try action(#""command":"setAlertSettings""#) == .setAlertSettings(settings: AlertSettingsSet.defaults))
    }

    @Test("every name of every enum the schema writes reads back as its case (WalletKind, WalletDesignation, CategoryGroup, BudgetType, TransactionKind, RecurrenceFrequency, SplitRatioMode, IncomeMode)")
    func everyEnumCaseHasAName() throws {
        func roundTrip<Value: CommandFieldName & CaseIterable>(_: Value.Type) throws {
            for value in Value.allCases {
                let json = value.commandJSON
                #expect(json != .string(""), "\(value) has no name in the schema")
                #expect(try Value(commandJSON: json, at: "field", log: FieldLog()) == value)
            }
        }
        try roundTrip(WalletKind.self)
        try roundTrip(WalletDesignation.self)
        try roundTrip(CategoryGroup.self)
        try roundTrip(BudgetType.self)
        try roundTrip(TransactionKind.self)
        try roundTrip(RecurrenceFrequency.self)
        try roundTrip(SplitRatioMode.self)
        try roundTrip(IncomeMode.self)
    }

    @Test("R1: a template's terms written by jsonLine read back: equal, exact (in the price's currency) and percentage sharing, an end date and a trial; a percentage outside 0...10000 or an equal weight other than 1 is written so that the line is refused, never changed; empty terms read back as none")
    func templateTermsRoundTrip() throws {
        let alice = try PersonID(parsing: "00000002-0000-4000-8000-000000000001")
        let bob = try PersonID(parsing: "00000002-0000-4000-8000-000000000002")
        let entry = TransactionEntry(
            kind: .expense, amount: Money(minorUnits: 1_500, currency: try Currency("EUR")), walletID: try WalletID(parsing: "00000003-0000-4000-8000-000000000001"),
            categoryID: try CategoryID(parsing: "00000004-0000-4000-8000-000000000001"), date: try LocalDate(iso: "2026-02-01"))
        func command(_ terms: TemplateTerms?) throws -> Command {
            Command(commandID: try CommandID(parsing: "0000000c-0000-4000-8000-000000000001"), actor: alice,
                    recordedAt: try Timestamp(iso8601: "2026-02-01T08:00:00.000Z"),
                    action: .createTemplate(templateID: try TemplateID(parsing: "00000007-0000-4000-8000-000000000001"),
                                            frequency: .monthly, entry: entry, terms: terms))
        }
        let shares: [TemplateSharing] = [
            TemplateSharing(kind: .equal, weights: [MemberWeight(person: alice, weight: 1), MemberWeight(person: bob, weight: 1)]),
            TemplateSharing(kind: .exact, weights: [MemberWeight(person: alice, weight: 1_000), MemberWeight(person: bob, weight: 500)]),
            TemplateSharing(kind: .percent, weights: [MemberWeight(person: alice, weight: 6_000), MemberWeight(person: bob, weight: 4_000)]),
        ]
        for sharing in shares {
            let written = try command(TemplateTerms(endDate: try LocalDate(iso: "2027-01-31"), trialEndsOn: try LocalDate(iso: "2026-02-14"), sharing: sharing))
            #expect(try CommandParser.parse(line: written.jsonLine) == written, "\(written.jsonLine)")
        }
        #expect(try command(TemplateTerms(sharing: shares[1])).jsonLine.contains(#""currency":"EUR""#), "exact shares in the price's currency")
        for refused in [
            TemplateSharing(kind: .percent, weights: [MemberWeight(person: alice, weight: 12_000)]),
            TemplateSharing(kind: .equal, weights: [MemberWeight(person: alice, weight: 2)]),
        ] {
            #expect(throws: CommandParseError.self) { try CommandParser.parse(line: try command(TemplateTerms(sharing: refused)).jsonLine) }
        }
        #expect(try CommandParser.parse(line: try command(TemplateTerms()).jsonLine) == (try command(nil)))
    }

    @Test("G6: a line's errors come in the order the schema reads it: an unknown command first, then the envelope (actor, commandID, recordedAt), then the command's fields")
    func errorsInSchemaOrder() throws {
        #expect(throws: CommandParseError(code: .unknownCommand, field: "command", message: "'payRent' is not a command; see Docs/Commands.md for the list")) {
            try CommandParser.parse(line: #"{"command":"payRent"}"#)
        }
        #expect(throws: CommandParseError.missing("actor")) {
            try CommandParser.parse(line: #"{"command":"addMember","personID":"nope"}"#)
        }
        let badField = #expect(throws: CommandParseError.self) {
            try CommandParser.parse(line: "{\(Self.header),\"command\":\"addMember\",\"personID\":\"nope\",\"name\":\"Bob\"}")
        }
        #expect(badField?.field == "personID" && badField?.code == .badValue)
    }
}
