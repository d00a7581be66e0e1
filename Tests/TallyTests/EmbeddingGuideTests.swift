import Foundation
import Synchronization
import Tally
import TallyInterchange
import TallyTestSupport
import Testing

/// Sources/Tally/Tally.docc/Embedding.md: every `swift` block of the guide is here verbatim, in the test that runs
/// it on the household of Sources/TallyCLI/Demo/household.jsonl (86 events), and
/// ``everySnippetOfTheGuideIsInThisFile()`` fails when a block of the guide is not.
@Suite("Embedding guide snippets", .serialized)
struct EmbeddingGuideTests {
    @Test("open, observe, execute, close: the screen's task shows the balances after the command and ends at close (the old snippet's inline loop never returned)")
    func openObserveExecuteClose() async throws {
        let temporary = try TemporaryDirectory("tally-guide-open")
        defer { temporary.remove() }
        let directory = temporary.appending("ledger").string
        try await Self.household(at: FilePath(directory)).close()
        let jsonLine = Self.bobCashExpenseLine
        let shown = Recorded<[WalletBalance]>()
        @Sendable func show(_ wallets: [WalletBalance]) { shown.append(wallets) }

        let ledger = try await Ledger.open(at: FilePath(directory))
        // The balances screen: the current value first, then one value per commit that changed it.
        let balances = await ledger.observe { db in try db.walletBalances() }
        let screen = Task {
            for try await wallets in balances { show(wallets) }  // ends when the ledger closes
        }
        try await ledger.execute(try CommandParser.parse(line: jsonLine))  // or build Command values
        try await ledger.close()
        try await screen.value

        let last = try #require(shown.values.last, "the screen showed a value")
        // Bob cash: CHF 8.40 after the household (200.00 - 84.30 - 45.00 - 62.30), then - 5.00.
        #expect(last.first { $0.name == "Bob cash" }?.balance.minorUnits == 340, "the last value shown is the one after the command")
        #expect(shown.values.allSatisfy { $0.count == 5 })
    }

    @Test("typed commands (issue 30): an expense built from the typed API, deleted by a whole command whose JSON line reads back as it, and undone; payer defaults to the actor (T1, T3, T5)")
    func typedCommands() async throws {
        let temporary = try TemporaryDirectory("tally-guide-typed")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let alice = try PersonID(parsing: "00000002-0000-4000-8000-000000000001")
        let joint = try WalletID(parsing: "00000003-0000-4000-8000-000000000001")
        let food = try CategoryID(parsing: "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e")
        let today = try LocalDate(iso: "2026-02-28")
        var log: [String] = []

        let groceries = TransactionID.random()
        let expense = TransactionEntry(
            kind: .expense, amount: Money(minorUnits: 8_450, currency: .chf), walletID: joint,
            categoryID: food, date: today, note: "Migros", shared: true)  // payer: the actor
        try await ledger.execute(.recordTransaction(transactionID: groceries, entry: expense), as: alice)

        // A command built whole carries its own envelope; its JSON line is what `tally apply` replays.
        let delete = Command(commandID: .random(), actor: alice, recordedAt: .now(),
                             action: .deleteTransaction(transactionID: groceries))
        try await ledger.execute(delete)
        log.append(delete.jsonLine)
        try await ledger.execute(.undo(targetCommandID: delete.commandID), as: alice)

        #expect(try log.map { line throws(CommandParseError) in try CommandParser.parse(line: line) } == [delete])
        let restored = await ledger.read { models in models.wallets.transaction(groceries) }
        #expect(restored?.isLive == true, "the undo restored the deleted expense")
        #expect(restored?.details.payer == alice && restored?.details.split != nil, "payer: the actor; shared")
        try await ledger.close()
    }

    @Test("screens from queries: a wallet's first page and the next one by cursor share no row; day totals, the category x month report and the debts answer")
    func screensFromQueries() async throws {
        let temporary = try TemporaryDirectory("tally-guide-queries")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let joint = try WalletID(parsing: "00000003-0000-4000-8000-000000000001")
        let today = try LocalDate(iso: "2026-02-28")

        var query = TransactionQuery()
        query.walletIDs = [joint]
        query.limit = 5
        let firstPage = try await ledger.transactions(query)   // rows with wallet, category and payer names
        var secondPage: TransactionPage?
        if let next = firstPage.next {                           // nil after the last row
            query.after = next
            secondPage = try await ledger.transactions(query)
        }
        var february = TransactionQuery()
        february.restrict(to: try YearMonth(year: 2026, month: 2))
        let days = try await ledger.dayTotals(february)                      // a list grouped by day
        let spending = try await ledger.categoryTotals(byMonth: february)    // category x month cells
        let table = try spending.pivoted()               // rows by category, a column per month
        let debts = try await ledger.debts()             // who owes whom, with their names
        // Budgets, net worth, plans: the live read models, on the ledger.
        let budget = try await ledger.read { models in try models.budgets.budget(for: models.budgets.period(containing: today)) }

        let second = try #require(secondPage)
        #expect(firstPage.rows.count == 5 && second.rows.count == 5)
        #expect(Set(firstPage.rows.map(\.transaction.transactionID)).isDisjoint(with: second.rows.map(\.transaction.transactionID)))
        #expect(firstPage.rows.allSatisfy { $0.walletName == "Joint account" })
        #expect(days.first { $0.date == (try? LocalDate(iso: "2026-02-25")) }?.total == Money(minorUnits: 900_000, currency: .chf))
        #expect(spending.first { $0.categoryName == "Rent" }?.total == Money(minorUnits: 240_000, currency: .chf))
        #expect(!debts.isEmpty && debts.allSatisfy { $0.debtorName != nil && $0.creditorName != nil }, "S5 debts carry both names")
        let rent = try #require(table.rows.first { $0.categoryName == "Rent" })
        #expect(table.spans == [try YearMonth(year: 2026, month: 2)] && rent.amounts == [Money(minorUnits: 240_000, currency: .chf)] && rent.total == rent.amounts[0])
        #expect(budget.period.contains(today))
        try await ledger.close()
    }

    @Test("search, statement and activity: the search finds the Migros shops, the statement ends at the joint account's balance, the feed marks what can be undone")
    func searchStatementActivity() async throws {
        let temporary = try TemporaryDirectory("tally-guide-search")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let joint = try WalletID(parsing: "00000003-0000-4000-8000-000000000001")

        var search = TransactionQuery()
        search.text = "migros shop"                    // every word starts a word of a note or a tag
        let found = try await ledger.transactions(search)
        let statement = try await ledger.statement(StatementQuery(walletID: joint))  // each row with the balance after it
        let recent = try await ledger.activity()       // the household's commands, newest first
        let undoable = recent.entries.filter { $0.undo == .undoable }  // what an Undo button may offer (T5)

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
        let model = BalancesModel(ledger: ledger)
        #expect(await LedgerObservationTests.eventually { model.balances.value?.count == 5 })
        #expect(model.balances.value?.first { $0.name == "Alice savings" }?.balance.minorUnits == 1_300_000)
        try await ledger.close()
    }

    @Test("integrations: committedEvents(after:) hands over every event after the last one forwarded, then the new one, once and in order, and ends at the close")
    func integrationCatchesUpThenFollows() async throws {
        let temporary = try TemporaryDirectory("tally-guide-changes")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let forwardedThrough: UInt64 = 40
        let forwardedSequenceNumbers = Recorded<UInt64>()
        @Sendable func forward(_ committed: CommittedEvent) { forwardedSequenceNumbers.append(committed.sequenceNumber) }

        let follower = Task {
            // Every event after the last one forwarded, then each new one, until the ledger closes.
            for try await committed in ledger.committedEvents(after: forwardedThrough) { forward(committed) }
        }

        try await ledger.execute(try CommandParser.parse(line: Self.bobCashExpenseLine))
        try await ledger.close()
        try await follower.value
        #expect(forwardedSequenceNumbers.values == Array(41...87), "every event after 40 once, in order, the new one included")
    }

    @Test("personal data: the export is made from the journal, and after forgetting the store answers with the name redacted")
    func exportThenForget() async throws {
        let temporary = try TemporaryDirectory("tally-guide-forget")
        defer { temporary.remove() }
        let ledger = try await Self.household(at: temporary.appending("ledger"))
        let admin = try PersonID(parsing: "00000002-0000-4000-8000-000000000001")
        let bob = try PersonID(parsing: "00000002-0000-4000-8000-000000000002")
        let removeID = try CommandID(parsing: "0000000c-0000-4000-8000-0000000000ff")
        let forgetID = try CommandID(parsing: "0000000c-0000-4000-8000-0000000000fe")
        let now = try Timestamp(iso8601: "2026-03-01T09:00:00.000Z")

        // One person's data (TECH-009): everything they can see, as JSON (Docs/Interchange.md).
        let history = try LedgerHistory.load(at: ledger.directory)
        let export: Data = try PersonalDataExport.make(for: bob, from: history).encoded()

        // Forget them (P3): a removed member or a contact; admin only; once; not undoable.
        try await ledger.execute([
            Command(commandID: removeID, actor: admin, recordedAt: now,
                    action: .removeMember(personID: bob, acknowledgeUnsettled: true)),
            Command(commandID: forgetID, actor: admin, recordedAt: now, action: .forgetPerson(personID: bob)),
        ])
        var paidByBob = TransactionQuery()
        paidByBob.payers = [bob]
        let payer = try await ledger.transactions(paidByBob).rows.first?.payerName  // "[redacted]"
        let unfinished = await ledger.unfinishedForgetting  // not empty only after an I/O failure

        #expect(String(decoding: export, as: UTF8.self).contains("\"Bob\""), "the export made before holds the name")
        #expect(payer == "[redacted]")
        #expect(unfinished.isEmpty)
        try await ledger.close()
    }

    @Test("every swift block of Sources/Tally/Tally.docc/Embedding.md is in this file verbatim (whitespace aside), its imports among this file's")
    func everySnippetOfTheGuideIsInThisFile() throws {
        let guide = try String(contentsOf: RepositoryFiles.url("Sources/Tally/Tally.docc/Embedding.md"), encoding: .utf8)
        let tests = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let snippets = GuideSnippet.swiftBlocks(in: guide)
        #expect(snippets.count == 7, "the guide's swift blocks (update this count and add a test for a new one)")
        let testImports = Set(tests.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init))
        // Issue 30: one import. This file imports no module of the engine but Tally and
        // TallyInterchange, so a block compiles here with what it shows.
        #expect(testImports.isDisjoint(with: ["import TallyModel", "import TallyProjections", "import TallyStore", "import TallyJournal", "import SystemPackage"]))
        let normalizedTests = GuideSnippet.normalized(tests)
        for (index, snippet) in snippets.enumerated() {
            for line in snippet.imports where !testImports.contains(line) {
                Issue.record("swift block \(index + 1) of Sources/Tally/Tally.docc/Embedding.md imports what this file does not: \(line)")
            }
            let isHere = normalizedTests.contains(GuideSnippet.normalized(snippet.body))
            #expect(isHere, "swift block \(index + 1) of Sources/Tally/Tally.docc/Embedding.md is not in EmbeddingGuideTests.swift:\n\(snippet.body)")
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
    static let bobCashExpenseLine = """
        {"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000001f0", "actor": "00000002-0000-4000-8000-000000000002", \
        "recordedAt": "2026-02-28T09:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000001f0", "kind": "expense", \
        "amount": "CHF 5.00", "walletID": "00000003-0000-4000-8000-000000000003", \
        "categoryID": "1888ea90-fe65-8eb9-b79a-cbe2cfa8e97e", "date": "2026-02-28"}
        """
}

// The guide's ObservedValue snippet (a declaration, so at file scope).
@MainActor
final class BalancesModel {
    let balances: ObservedValue<[WalletBalance]>
    init(ledger: Ledger) { balances = ObservedValue(ledger) { db in try db.walletBalances() } }
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
