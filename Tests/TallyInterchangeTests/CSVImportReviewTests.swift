import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import TallyStore
import TallyTestSupport
import Testing

/// CSV import with review: category suggestions learned from corrections (Flow US-072), columns
/// found by content and unknown categories created for review (US-046), keep both and the
/// import-source mark (US-071). Docs/Interchange.md "CSV import", "Category suggestions".
@Suite("CSV import suggestions, detection and review", .serialized)
struct CSVImportReviewTests {
    static let recordedAt = CSVImportAccountTests.recordedAt

    static func entries(_ plan: CSVImporter.Plan) -> [TransactionEntry] {
        plan.commands.compactMap { command in
            guard case .recordTransaction(_, let entry) = command.action else { return nil }
            return entry
        }
    }

    static func category(_ name: String, in state: LedgerState, group: CategoryGroup = .expense) throws -> CategoryID {
        try #require(state.categories.first { $0.value.name == name && $0.value.group == group && !$0.value.isDeleted }?.key)
    }

    @Test("US-072: the suggestion for a payee is its latest categorisation: a correction wins and the next import uses it; G7: learned only from what the importer sees")
    func suggestionLearnsFromCorrections() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let alice = try #require(history.state.household?.admin)
        let bob = try #require(history.state.people.first { $0.value.name.text == "Bob" }?.key)
        let csv = "date,payee,amount,category\n2026-03-01,SBB,-5.00,Transport\n2026-03-02,sbb,-7.00,Transport\n2026-03-03,Migros,-20.00,Groceries\n"
        let first = try CSVImporter(walletName: "Joint account", recordedAt: Self.recordedAt).plan(csv, state: history.state)
        var learned = try await CSVImportAccountTests.execute(first, in: directory)
        let transport = try Self.category("Transport", in: learned.state)
        let entertainment = try Self.category("Entertainment", in: learned.state)
        var suggestion = try #require(CategorySuggestions(state: learned.state, visibleTo: .member(alice)).suggestion(forPayee: "  sbb", group: .expense))
        #expect((suggestion.categoryID, suggestion.matching, suggestion.total, suggestion.confidence) == (transport, 2, 2, .high))
        #expect(CategorySuggestions(state: learned.state, visibleTo: .member(alice)).suggestion(forPayee: "SBB", group: .income) == nil, "per group")
        #expect(CategorySuggestions(state: learned.state, visibleTo: .member(bob)).suggestion(forPayee: "SBB", group: .expense) == nil,
                "G7: Alice's personal transactions teach Bob nothing")

        // The user corrects one SBB expense to Entertainment: that is the latest categorisation.
        guard case .recordTransaction(let corrected, var entry) = first.commands[1].action else { Issue.record("not a transaction"); return }
        entry.categoryID = entertainment
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        try await ledger.execute([Command(
            commandID: CommandID(.derived(namespace: UUIDValue(high: 72, low: 72), name: "correction")), actor: alice, recordedAt: Self.recordedAt,
            action: .editTransaction(transactionID: corrected, entry: entry))])
        let served = await ledger.suggestedCategory(forPayee: "sbb", visibleTo: .member(alice))
        try await ledger.close()
        learned = try LedgerHistory.load(at: directory)
        suggestion = try #require(CategorySuggestions(state: learned.state, visibleTo: .member(alice)).suggestion(forPayee: "SBB", group: .expense))
        #expect((suggestion.categoryID, suggestion.matching, suggestion.total, suggestion.confidence) == (entertainment, 1, 2, .low))
        #expect(served == suggestion, "Ledger.suggestedCategory serves the same")

        // A row without a category takes the suggestion; with a default category a low one yields to it.
        let second = "date,payee,amount\n2026-03-10,Sbb,-6.00\n2026-03-11,Migros,-30.00\n2026-03-12,Unknown shop,-1.00\n"
        var importer = CSVImporter(walletName: "Joint account", recordedAt: Self.recordedAt)
        var plan = try importer.plan(second, state: learned.state)
        #expect(Self.entries(plan).map(\.categoryID) == [entertainment, try Self.category("Groceries", in: learned.state)])
        #expect(plan.rows.map(\.suggestion?.confidence) == [.low, .high, nil])
        #expect(plan.rows[2].status == .failed && plan.rows[2].reason?.contains("no category") == true, "no history, no default: the row fails")
        importer.defaultCategory = "Other"
        plan = try importer.plan(second, state: learned.state)
        #expect(Self.entries(plan).first?.categoryID == (try Self.category("Other", in: learned.state, group: .expense)),
                "a low-confidence suggestion yields to the default category")
        #expect(plan.rows.map(\.suggestion?.confidence) == [nil, .high, nil])
        importer.actor = bob
        importer.defaultCategory = nil
        #expect(try importer.plan(second, state: learned.state).failed == 3, "G7: Bob's import learns nothing from Alice's transactions")
    }

    @Test("US-072, Swiff 1.1.2: suggestions learn by a transaction's payee (else the note's, for rows imported before), through the store's payee index after a checkpoint and from memory after it; G7 per viewer; P3 a forgotten person's payees teach nothing")
    func suggestionsLearnByPayeeThroughTheIndex() async throws {
        var s = Scenario()
        let directory = try TemporaryDirectory("tally-payee-index")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var ledger = try await Ledger.open(at: path, options: LedgerOptions(durability: .synchronous))
        try await ledger.execute(s.setup())
        func record(_ payee: String?, note: String?, _ category: CategoryID, by actor: PersonID) async throws -> TransactionID {
            var entry = s.expense(500, payer: actor, category: category)
            entry.payee = payee
            entry.note = note
            let id: TransactionID = s.ids.next()
            try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry), by: actor))
            return id
        }
        func suggested(_ viewer: Viewer, _ payee: String = " sbb ") async -> [String] {
            guard let suggestion = await ledger.suggestedCategory(forPayee: payee, visibleTo: viewer) else { return [] }
            return [Scenario.categoryName(suggestion.categoryID), "\(suggestion.matching)/\(suggestion.total)"]
        }
        let corrected = try await record("SBB", note: "Zurich - Bern", s.groceries, by: s.alice)
        _ = try await record("Sbb", note: nil, s.groceries, by: s.alice)
        _ = try await record(nil, note: "SBB: ticket", s.groceries, by: s.alice)  // imported before payees had a field
        _ = try await record("Coop", note: "SBB: not the payee", s.restaurants, by: s.alice)  // a payee wins over the note
        _ = try await record("SBB", note: nil, s.restaurants, by: s.bob)
        let groceries = Scenario.categoryName(s.groceries)
        let restaurants = Scenario.categoryName(s.restaurants)
        #expect(await suggested(.member(s.alice)) == [groceries, "3/3"])
        #expect(await suggested(.member(s.bob)) == [restaurants, "1/1"], "G7: Bob learns only from what he sees")
        #expect(await suggested(.audit) == [restaurants, "1/4"], "the latest categorisation wins")
        #expect(await suggested(.member(s.alice), "coop") == [restaurants, "1/1"])

        try await ledger.checkpoint()
        #expect(await suggested(.member(s.alice)) == [groceries, "3/3"], "read through the store's payee index")
        var edit = s.expense(500, payer: s.alice, category: s.restaurants)
        edit.payee = "SBB"
        try await ledger.execute(s.command(.editTransaction(transactionID: corrected, entry: edit)))
        #expect(await suggested(.member(s.alice)) == [restaurants, "1/3"], "a correction after the checkpoint, in memory, wins")
        try await ledger.close()
        ledger = try await Ledger.open(at: path, options: LedgerOptions(durability: .synchronous))
        #expect(await suggested(.member(s.alice)) == [restaurants, "1/3"], "the same after a reopen")

        try await ledger.execute([
            s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)),
            s.command(.forgetPerson(personID: s.bob)),
        ])
        #expect(await suggested(.audit) == [restaurants, "1/3"], "P3: Bob's redacted payee teaches nothing")
        try await ledger.close()
    }

    @Test("US-072: a payee is the note up to \": \", case and diacritics folded, whitespace collapsed; a blank one is none")
    func payeeOfNote() {
        #expect(PayeeKey(note: "Migros: weekly shop")?.value == "migros")
        #expect(PayeeKey(note: "  Café   Zürich ")?.value == "cafe zurich")
        #expect(PayeeKey(note: " : nothing before")?.value == nil)
    }

    @Test("US-046: date, amount and category columns are found by content when the header names none; several candidates are csvColumnAmbiguous, none csvColumnMissing")
    func columnsByContent() async throws {
        let (_, history) = try await InterchangeLedgerTests.makeLedger()
        let importer = CSVImporter(walletName: "Joint account", recordedAt: Self.recordedAt)
        let plan = try importer.plan("Datum;Ref;Betrag;Text;Kategorie\n03.02.2026;1001;-12,50;Bakery;Groceries\n15.02.2026;1002;-40;Books;\n", state: history.state)
        #expect(plan.detectedColumns.map { "\($0.field)=\($0.column)" } == ["date=Datum", "amount=Betrag", "category=Kategorie"],
                "a column of bare whole numbers (Ref) is not taken for amounts")
        #expect(plan.inserted == 1 && plan.failed == 1, "the second row has no category and no default")
        #expect(Self.entries(plan).first?.amount == Money(minorUnits: 1250, currency: .chf))
        #expect { try importer.plan("date;Betrag;Saldo;category\n2026-03-01;-5.00;100.00;Groceries\n", state: history.state) } throws: { error in
            let error = error as? InterchangeError
            return error?.code == "csvColumnAmbiguous" && error?.message.contains("Betrag") == true && error?.message.contains("Saldo") == true
        }
        #expect { try importer.plan("date;Text;category\n2026-03-01;Bread;Groceries\n", state: history.state) } throws: { error in
            (error as? InterchangeError)?.code == "csvColumnMissing"
        }
    }

    @Test("US-046: an unknown category fails the row, or with create is created once in the batch and listed for review; C2 still holds; a mapped name is never created")
    func unknownCategoriesCreatedForReview() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let csv = "date,amount,note,category\n2026-03-01,-5,Yarn,Knitting\n2026-03-02,-6,Needles,knitting\n2026-03-03,50,Sold scarf,Knitting\n"
        var importer = CSVImporter(walletName: "Joint account", recordedAt: Self.recordedAt)
        let failing = try importer.plan(csv, state: history.state)
        #expect(failing.failed == 3 && failing.rows[0].column == "category" && failing.newCategories.isEmpty)
        importer.unknownCategories = .create
        let plan = try importer.plan(csv, state: history.state)
        #expect(plan.rows.map(\.status) == [.inserted, .inserted, .failed])
        #expect(plan.rows[2].reason?.contains("C2") == true, "the income row cannot create a second Knitting: \(plan.rows[2].reason ?? "")")
        let created = try #require(plan.newCategories.first)
        #expect(plan.newCategories.count == 1 && (created.name, created.group, created.line) == ("Knitting", .expense, 2))
        #expect(Self.entries(plan).map(\.categoryID) == [created.categoryID, created.categoryID])
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        try await ledger.execute(plan.commands)
        try await ledger.close()
        let after = try LedgerHistory.load(at: directory)
        #expect(after.state.categories[created.categoryID]?.name == "Knitting")
        let again = try importer.plan(csv, state: after.state)
        #expect(again.newCategories.isEmpty && again.inserted == 0 && again.skipped == 2, "a re-import finds the category and the rows")
        importer.categoryMapping = ["wool": "Crafts"]
        let mapped = try importer.plan("date,amount,category\n2026-03-05,-5,Wool\n", state: history.state)
        #expect(mapped.failed == 1 && mapped.newCategories.isEmpty, "a mapping to a missing category is a mistake, not a name to create")
    }

    @Test("US-071: keep both records a duplicate beside the existing one, once per row of a file; an external id imported before stays skipped; --source marks the rows with a tag lists filter on")
    func keepBothAndSourceMark() async throws {
        let (directory, history) = try await InterchangeLedgerTests.makeLedger()
        let csv = "date,amount,note,category\n2026-03-01,-5.00,Coffee,Restaurants\n2026-03-01,-5.00,Coffee,Restaurants\n"
        var importer = CSVImporter(walletName: "Joint account", recordedAt: Self.recordedAt)
        #expect(try importer.plan(csv, state: history.state).skipped == 1, "skip is the default")
        importer.duplicates = .keepBoth
        importer.source = "UBS"
        let plan = try importer.plan(csv, state: history.state)
        #expect(plan.rows.map(\.status) == [.inserted, .inserted])
        #expect(plan.rows[1].reason?.contains("line 2") == true && plan.rows[1].reason?.contains("both kept") == true)
        #expect(Self.entries(plan).map(\.tags) == [["import:UBS"], ["import:UBS"]])
        let after = try await CSVImportAccountTests.execute(plan, in: directory)
        #expect(try importer.plan(csv, state: after.state).skipped == 2, "the same file again: each row was imported before")
        let other = try importer.plan("date,amount,note,category\n2026-03-01,-5.00,Coffee,Restaurants\n", state: after.state)
        #expect(other.inserted == 1 && other.rows[0].reason?.contains("both kept") == true, "another file's equal row is kept beside them")
        let external = "date,amount,note,category,external_id\n2026-03-02,-9.00,Tea,Restaurants,R1\n"
        let withID = try await CSVImportAccountTests.execute(try importer.plan(external, state: after.state), in: directory)
        #expect(try importer.plan(external, state: withID.state).skipped == 1, "the same bank record is never doubled")

        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        var query = TransactionQuery(visibleTo: .audit)
        query.tags = ["import:UBS"]
        let marked = try await ledger.transactions(query).rows
        try await ledger.close()
        #expect(marked.count == 3 && marked.allSatisfy { $0.tags == ["import:UBS"] })
        for invalid in [String(repeating: "x", count: 58), " "] {
            importer.source = invalid
            #expect { try importer.plan(csv, state: history.state) } throws: { error in (error as? InterchangeError)?.code == "csvSourceInvalid" }
        }
        importer.source = String(repeating: "x", count: 57)
        #expect(try importer.plan(csv, state: history.state).inserted == 2, "57 bytes and import: fill a tag's 64")
    }
}
