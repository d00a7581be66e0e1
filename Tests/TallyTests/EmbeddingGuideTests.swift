import Foundation
import Synchronization
import Tally
import TallyGuideBlocks
import TallyInterchange
import TallyTestSupport
import Testing

/// Sources/Tally/Tally.docc/Embedding.md: every `swift` block of the guide is a file of
/// Examples/GuideBlocks, verbatim and with exactly its imports (built again outside the package by
/// Examples/External); each test here runs one on the household of
/// Sources/TallyCLI/Demo/household.jsonl (86 events), and ``everySnippetOfTheGuideIsABlockFile()``
/// fails when a block of the guide is not there.
@Suite("Embedding guide snippets", .serialized)
struct EmbeddingGuideTests {
    @Test("open, observe, execute, close: the screen's task shows the balances after the command and ends at close (the old snippet's inline loop never returned)")
    func openObserveExecuteClose() async throws {
        let temporary = try TemporaryDirectory("tally-guide-open")
        defer { temporary.remove() }
        let directory = temporary.appending("ledger").string
        try await Self.household(at: FilePath(directory)).close()
        let shown = Recorded<[WalletBalance]>()
        try await GuideBlocks.openObserveExecuteClose(directory: directory, me: Self.bob, jsonLine: Self.bobCashExpenseLine) { shown.append($0) }

        let last = try #require(shown.values.last, "the screen showed a value")
        // Bob cash: CHF 8.40 after the household (200.00 - 84.30 - 45.00 - 62.30), then - 5.00.
        #expect(last.first { $0.name == "Bob cash" }?.balance.minorUnits == 340, "the last value shown is the one after the command")
        // G7: Bob sees the household's wallets (Joint account, ETF portfolio) and his own two, not Alice's two.
        #expect(shown.values.allSatisfy { Set($0.map(\.name)) == ["Joint account", "Bob cash", "Bob salary account", "ETF portfolio"] })
    }

    @Test("typed commands (issue 30): an expense built from the typed API, deleted by a whole command whose JSON line reads back as it, and undone; payer defaults to the actor (T1, T3, T5)")
    func typedCommands() async throws {
        let temporary = try TemporaryDirectory("tally-guide-typed")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let alice = try PersonID(parsing: "00000002-0000-4000-8000-000000000001")
        var log: [String] = []
        let groceries = try await GuideBlocks.typedCommands(
            ledger: ledger, alice: alice, joint: try WalletID(parsing: "00000003-0000-4000-8000-000000000001"),
            food: try CategoryID(parsing: "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e"), today: try LocalDate(iso: "2026-02-28"), log: &log)

        let logged = try log.map { line throws(CommandParseError) in try CommandParser.parse(line: line) }
        #expect(logged.count == 1 && logged.first?.action == .deleteTransaction(transactionID: groceries) && logged.first?.actor == alice)
        let restored = await ledger.auditRead { models in models.wallets.transaction(groceries) }
        #expect(restored?.isLive == true, "the undo restored the deleted expense")
        #expect(restored?.details.payer == alice && restored?.details.split != nil, "payer: the actor; shared")
        try await ledger.close()
    }

    @Test("screens from queries: a wallet's first page and the next one by cursor share no row; day totals, the pivoted category x month report, the debts with names and the open period's budget answer")
    func screensFromQueries() async throws {
        let temporary = try TemporaryDirectory("tally-guide-queries")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let today = try LocalDate(iso: "2026-02-28")
        let screens = try await GuideBlocks.screensFromQueries(
            ledger: ledger, me: Self.alice, joint: try WalletID(parsing: "00000003-0000-4000-8000-000000000001"), today: today)

        let (firstPage, days, spending, table, debts) = (screens.firstPage, screens.days, screens.spending, screens.table, screens.debts)
        let second = try #require(screens.secondPage)
        #expect(firstPage.rows.count == 5 && second.rows.count == 5)
        #expect(Set(firstPage.rows.map(\.transaction.transactionID)).isDisjoint(with: second.rows.map(\.transaction.transactionID)))
        #expect(firstPage.rows.allSatisfy { $0.walletName == "Joint account" })
        // G7: Alice's day holds her salary, not Bob's (his personal income).
        #expect(days.first { $0.date == (try? LocalDate(iso: "2026-02-25")) }?.total == Money(minorUnits: 540_000, currency: .chf))
        #expect(spending.first { $0.categoryName == "Rent" }?.total == Money(minorUnits: 240_000, currency: .chf))
        #expect(!debts.isEmpty && debts.allSatisfy { $0.debtorName != nil && $0.creditorName != nil }, "S5 debts carry both names")
        let rent = try #require(table.rows.first { $0.categoryName == "Rent" })
        #expect(table.spans == [try YearMonth(year: 2026, month: 2)] && rent.amounts == [Money(minorUnits: 240_000, currency: .chf)] && rent.total == rent.amounts[0])
        #expect(screens.budget.period.contains(today))
        try await ledger.close()
    }

    @Test("search, statement and activity: the search finds the Migros shops, the statement ends at the joint account's balance, the feed marks what can be undone")
    func searchStatementActivity() async throws {
        let temporary = try TemporaryDirectory("tally-guide-search")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let (found, statement, recent, undoable) = try await GuideBlocks.searchStatementActivity(
            ledger: ledger, me: Self.alice, joint: try WalletID(parsing: "00000003-0000-4000-8000-000000000001"))

        #expect(found.rows.count == 3 && found.rows.allSatisfy { $0.note?.text?.hasPrefix("Migros weekly shop") == true })
        // Joint account: CHF 14'968.55 after the household (Examples/HostApp's test sums it by hand).
        #expect(statement.rows.first?.balance == Money(minorUnits: 1_496_855, currency: .chf))
        #expect(recent.entries.count == 50 && recent.next != nil)
        #expect(!undoable.isEmpty && undoable.count < recent.entries.count, "balance points cannot be undone (T5)")
        try await ledger.close()
    }

    @Test("ObservedValue: the model's value is the current balances on the main actor")
    @MainActor
    func observedValueModel() async throws {
        let temporary = try TemporaryDirectory("tally-guide-model")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let balances = GuideBlocks.balancesModel(ledger: ledger, me: Self.alice)
        // G7: Alice sees the household's two wallets and her own two, not Bob cash.
        #expect(await LedgerObservationTests.eventually { balances.value?.count == 4 })
        #expect(balances.value?.contains { $0.name == "Bob cash" } == false)
        #expect(balances.value?.first { $0.name == "Alice savings" }?.balance.minorUnits == 1_300_000)
        try await ledger.close()
    }

    @Test("integrations: committedEvents(after:) hands over every event after the last one forwarded, then the new one, once and in order, and ends at the close")
    func integrationCatchesUpThenFollows() async throws {
        let temporary = try TemporaryDirectory("tally-guide-changes")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let forwardedSequenceNumbers = Recorded<UInt64>()
        let follower = GuideBlocks.follow(ledger: ledger, forwardedThrough: 40) { forwardedSequenceNumbers.append($0.sequenceNumber) }

        try await ledger.execute(try CommandParser.parse(line: Self.bobCashExpenseLine))
        try await ledger.close()
        try await follower.value
        #expect(forwardedSequenceNumbers.values == Array(41...95), "every event after 40 once, in order, the new one included")
    }

    @Test("personal data: the export is made from the journal, and after forgetting the store answers with the name redacted")
    func exportThenForget() async throws {
        let temporary = try TemporaryDirectory("tally-guide-forget")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let (export, payer, unfinished) = try await GuideBlocks.exportThenForget(
            ledger: ledger, admin: try PersonID(parsing: "00000002-0000-4000-8000-000000000001"),
            bob: try PersonID(parsing: "00000002-0000-4000-8000-000000000002"),
            removeID: try CommandID(parsing: "0000000c-0000-4000-8000-0000000000ff"),
            forgetID: try CommandID(parsing: "0000000c-0000-4000-8000-0000000000fe"), now: try Timestamp(iso8601: "2026-03-01T09:00:00.000Z"))

        #expect(String(decoding: export, as: UTF8.self).contains("\"Bob\""), "the export made before holds the name")
        #expect(payer == "[redacted]")
        #expect(unfinished.isEmpty)
        try await ledger.close()
    }

    @Test("getting started (issue 30): set up, record, read your write, observe, undo and close with typed commands, random ids, a Date and a Decimal; no envelope written by the app")
    func gettingStarted() async throws {
        let temporary = try TemporaryDirectory("tally-guide-start")
        defer { temporary.remove() }
        let (ledger, alice, joint, today) = try await GuideBlocks.openAndSetUp(directory: temporary.appending("ledger").string)
        let shown = Recorded<[WalletBalance]>()
        let (balances, lunch) = try await GuideBlocks.recordReadObserve(ledger: ledger, alice: alice, joint: joint, today: today) { shown.append($0) }

        #expect(balances.first { $0.walletID == joint }?.balance == Money(minorUnits: 250_000 - 2_340, currency: .chf), "the read shows the lunch")
        #expect(shown.values.last?.first { $0.walletID == joint }?.balance == Money(minorUnits: 250_000, currency: .chf), "the last value is after the undo")
        #expect(lunch.events.count == 1 && lunch.sequenceNumber == lunch.events[0].sequenceNumber)
        let reopened = try await Ledger.open(at: temporary.appending("ledger"))
        #expect(await reopened.lastSequenceNumber == lunch.sequenceNumber + 2, "T5: the undo's CommandUndone and the lunch's compensating deletion, nothing else after the lunch")
        try await reopened.close()
    }

    @Test("every swift block of Sources/Tally/Tally.docc/Embedding.md and GettingStarted.md is a file of Examples/GuideBlocks, verbatim (whitespace aside) and with exactly its imports")
    func everySnippetOfTheGuideIsABlockFile() throws {
        var snippets: [GuideSnippet] = []
        for page in ["GettingStarted", "Embedding"] {
            let text = try String(contentsOf: RepositoryFiles.url("Sources/Tally/Tally.docc/\(page).md"), encoding: .utf8)
            snippets += GuideSnippet.swiftBlocks(in: text)
        }
        #expect(snippets.count == 9, "the guide's swift blocks (update this count and add a test for a new one)")
        let folder = RepositoryFiles.url("Examples/GuideBlocks")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { try String(contentsOf: $0, encoding: .utf8) }
        for (index, snippet) in snippets.enumerated() {
            let body = GuideSnippet.normalized(snippet.body)
            guard let file = files.first(where: { GuideSnippet.normalized($0).contains(body) }) else {
                Issue.record("swift block \(index + 1) of the guide (GettingStarted.md, then Embedding.md) is not in Examples/GuideBlocks:\n\(snippet.body)")
                continue
            }
            let imports = file.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init)
            #expect(imports == snippet.imports, "swift block \(index + 1): the guide shows \(snippet.imports), its file imports \(imports)")
        }
    }

    /// Sources/TallyCLI/Demo/household.jsonl executed into a new ledger at `directory`, left open.
    static func household(at directory: FilePath) async throws -> Ledger {
        let bytes = try Data(contentsOf: RepositoryFiles.householdExample)
        let ledger = try await Ledger.open(at: directory)
        for outcome in try await ledger.execute(each: try CommandParser.parse(bytes: Array(bytes))) {
            _ = try outcome.get()
        }
        return ledger
    }

    /// An expense of CHF 5.00 from Bob cash, recorded by Bob.
    /// The demo household's admin and her partner (Sources/TallyCLI/Demo/household.jsonl).
    static let alice = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0001))
    static let bob = PersonID(UUIDValue(high: 0x0000_0002_0000_4000, low: 0x8000_0000_0000_0002))

    static let bobCashExpenseLine = """
        {"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000001f0", "actor": "00000002-0000-4000-8000-000000000002", \
        "recordedAt": "2026-02-28T09:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000001f0", "kind": "expense", \
        "amount": "CHF 5.00", "walletID": "00000003-0000-4000-8000-000000000003", \
        "categoryID": "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e", "date": "2026-02-28"}
        """
}

/// Values a snippet's closures hand over from other tasks.
final class Recorded<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }
}

/// A fenced `swift` block of a Markdown page: its import lines and the rest.
struct GuideSnippet {
    var imports: [String] = []
    var body = ""

    /// The ```swift blocks of `markdown`, in order.
    static func swiftBlocks(in markdown: String) -> [GuideSnippet] {
        var snippets: [GuideSnippet] = []
        var current: GuideSnippet?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = GuideSnippet()
            } else if let snippet = current, trimmed.hasPrefix("```") {
                snippets.append(snippet)
                current = nil
            } else if current != nil {
                if trimmed.hasPrefix("import ") { current?.imports.append(trimmed) } else { current?.body += line + "\n" }
            }
        }
        return snippets
    }

    /// `text` with every run of whitespace as one space, trimmed.
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
