import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Saved views (Flow US-058 saved report templates, Swiff 2.3.3 saved filters; R4, G7):
/// `saveView`, `renameView`, `deleteView`, their events and undo, and running a view through
/// the transaction list and the analytics report.
@Suite("Saved views")
struct SavedViewTests {
    static let day = Scenario.date("2026-03-10")

    /// The household with five transactions: Alice's personal groceries in January (80.00) and
    /// February (250.00, tagged `bio`), Bob's personal groceries (300.00), a shared grocery run
    /// Alice paid (120.00) and Alice's restaurant bill (60.00), all in February but the first.
    static func household() async throws -> (TestLedger, Scenario) {
        var s = Scenario()
        let test = try await TestLedger.make("saved-views", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        func entry(_ minorUnits: Int64, _ date: String, payer: PersonID, shared: Bool = false, category: CategoryID = Scenario.groceries,
                   tags: [String] = []) -> TransactionEntry {
            TransactionEntry(kind: .expense, amount: Scenario.chf(minorUnits), walletID: s.joint, categoryID: category,
                             date: Scenario.date(date), tags: tags, payer: payer, shared: shared)
        }
        let entries = [
            (entry(8_000, "2026-01-05", payer: s.alice), s.alice),
            (entry(25_000, "2026-02-10", payer: s.alice, tags: ["bio"]), s.alice),
            (entry(30_000, "2026-02-12", payer: s.bob), s.bob),
            (entry(12_000, "2026-02-15", payer: s.alice, shared: true), s.alice),
            (entry(6_000, "2026-02-20", payer: s.alice, category: Scenario.restaurants), s.alice),
        ]
        for (entry, actor) in entries {
            try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry), by: actor))
        }
        return (test, s)
    }

    static func expense(_ report: AnalyticsReport, _ month: Int) -> Int64? {
        report.periods.first { $0.period.start.month == month }?.totals.expense.minorUnits
    }

    @Test("US-058, 2.3.3, G7: a saved filter (amount range, categories, tags, text) is its owner's alone; it lists what its owner sees; another member neither lists, runs, renames nor deletes it (unknownView)")
    func privateFilterIsTheOwners() async throws {
        var (test, s) = try await Self.household()
        let id: ViewID = s.ids.next()
        let filter = TransactionFilter(categoryIDs: [s.groceries, s.restaurants], tags: ["bio"], text: "", minorUnits: 10_000...50_000)
        await expectRejection(test.ledger, s.command(.saveView(viewID: id, name: "Big bio", filter: filter)), code: "viewInvalid", rule: "R4")
        var kept = filter
        kept.text = nil
        try await test.ledger.execute(s.command(.saveView(viewID: id, name: "Big bio", filter: kept)))
        let saved = try await test.ledger.view(id, visibleTo: .member(s.alice))
        #expect(saved.owner == s.alice && !saved.shared && saved.report == nil && saved.filter == kept)
        let page = try await test.ledger.transactions(view: id, visibleTo: .member(s.alice))
        #expect(page.rows.map(\.transaction.amount.minorUnits) == [25_000])
        #expect(await test.ledger.views(visibleTo: .member(s.bob)).isEmpty)
        #expect(await test.ledger.views(visibleTo: .audit).map(\.viewID) == [id])
        await #expect(throws: LedgerError.self) { try await test.ledger.transactions(view: id, visibleTo: .member(s.bob)) }
        await expectRejection(test.ledger, s.command(.renameView(viewID: id, name: "Mine"), by: s.bob), code: "unknownView", rule: "R4")
        await expectRejection(test.ledger, s.command(.deleteView(viewID: id), by: s.bob), code: "unknownView", rule: "R4")
        // G7: saving over another member's private view names neither the view nor its owner.
        await expectRejection(test.ledger, s.command(.saveView(viewID: id, name: "Mine"), by: s.bob), code: "duplicateID", rule: "G5")
    }

    @Test("US-058, R4, G7: a shared report template (last three months by month, groceries) runs for each member over what they see, as the analytics query it stands for; only its owner renames it (viewNotOwned)")
    func sharedTemplateRunsPerViewer() async throws {
        var (test, s) = try await Self.household()
        let id: ViewID = s.ids.next()
        let layout = ReportLayout(range: .lastThreeMonths, span: .month)
        try await test.ledger.execute(s.command(.saveView(
            viewID: id, name: "Groceries by month", shared: true, filter: TransactionFilter(categoryIDs: [s.groceries]), report: layout)))
        #expect(await test.ledger.views(visibleTo: .member(s.bob)).map(\.name.description) == ["Groceries by month"])
        let alice = try await test.ledger.report(view: id, on: Self.day, visibleTo: .member(s.alice))
        let bob = try await test.ledger.report(view: id, on: Self.day, visibleTo: .member(s.bob))
        #expect(alice.periods.map(\.period.start) == [Scenario.date("2025-12-01"), Scenario.date("2026-01-01"), Scenario.date("2026-02-01")])
        var explicit = TransactionQuery(visibleTo: .member(s.bob))
        explicit.categoryIDs = [s.groceries]
        let same = try await test.ledger.analytics(AnalyticsQuery(
            span: .month, from: Scenario.date("2025-12-01"), through: Scenario.date("2026-02-28"), filter: explicit))
        #expect(bob == same, "the template is the analytics query with its fields")
        #expect(Self.expense(alice, 1) == 8_000 && Self.expense(bob, 1) == 0, "January: Alice's personal groceries are hers alone")
        let february = try #require(Self.expense(alice, 2)) - (try #require(Self.expense(bob, 2)))
        #expect(february == 25_000 - 30_000, "February: each sees their own personal groceries and the shared run")
        await expectRejection(test.ledger, s.command(.renameView(viewID: id, name: "Bob's"), by: s.bob), code: "viewNotOwned", rule: "R4")
        await expectRejection(test.ledger, s.command(.deleteView(viewID: id), by: s.bob), code: "viewNotOwned", rule: "R4")
    }

    @Test("US-058: a template by day over a custom range has a period per day; by category (range) one period with its categories; a saved filter has no report (invalidQuery)")
    func spansAndRanges() async throws {
        var (test, s) = try await Self.household()
        let byDay: ViewID = s.ids.next(), byCategory: ViewID = s.ids.next(), plain: ViewID = s.ids.next()
        try await test.ledger.execute([
            s.command(.saveView(viewID: byDay, name: "Days", report: ReportLayout(
                range: .custom, span: .day, from: Scenario.date("2026-02-10"), through: Scenario.date("2026-02-12")))),
            s.command(.saveView(viewID: byCategory, name: "Categories", report: ReportLayout(range: .lastMonth, span: .range))),
            s.command(.saveView(viewID: plain, name: "All")),
        ])
        let days = try await test.ledger.report(view: byDay, on: Self.day, visibleTo: .audit)
        #expect(days.periods.map(\.totals.expense.minorUnits) == [25_000, 0, 30_000])
        let categories = try await test.ledger.report(view: byCategory, on: Self.day, visibleTo: .audit)
        #expect(categories.periods.count == 1)
        #expect(categories.periods.first?.categories.map(\.amount.minorUnits).sorted() == [6_000, 67_000])
        await #expect(throws: LedgerError.invalidQuery("view All (\(plain)) is a saved filter without a report template; list its transactions instead")) {
            try await test.ledger.report(view: plain, on: Self.day, visibleTo: .audit)
        }
    }

    @Test("US-058, R4, W1, G6: a custom range without both dates or backwards, dates with a relative range, a negative amount, a blank tag are viewInvalid; another member's own wallet is unknownWallet; an empty name nameRequired")
    func saveRejections() async throws {
        var (test, s) = try await Self.household()
        let layouts = [ReportLayout(range: .custom, span: .month, from: Scenario.date("2026-01-01")),
                       ReportLayout(range: .custom, span: .month, from: Scenario.date("2026-02-01"), through: Scenario.date("2026-01-01")),
                       ReportLayout(range: .lastMonth, span: .week, from: Scenario.date("2026-01-01"))]
        for layout in layouts {
            await expectRejection(test.ledger, s.command(.saveView(viewID: s.ids.next(), name: "R", report: layout)), code: "viewInvalid", rule: "R4")
        }
        for filter in [TransactionFilter(minorUnits: -1...10), TransactionFilter(tags: [""])] {
            await expectRejection(test.ledger, s.command(.saveView(viewID: s.ids.next(), name: "F", filter: filter)), code: "viewInvalid", rule: "R4")
        }
        await expectRejection(test.ledger, s.command(.saveView(viewID: s.ids.next(), name: "Card", filter: TransactionFilter(walletIDs: [s.euroCard])), by: s.bob),
                              code: "unknownWallet", rule: "W1")
        await expectRejection(test.ledger, s.command(.saveView(viewID: s.ids.next(), name: " ")), code: "nameRequired", rule: "G6")
    }

    @Test("P1, P3: a view's name is its owner's personal text: once the owner is forgotten it reads as redacted, in the state and through a reopen")
    func forgettingTheOwnerRedactsTheName() async throws {
        var (test, s) = try await Self.household()
        let id: ViewID = s.ids.next()
        try await test.ledger.execute(s.command(.saveView(
            viewID: id, name: "Gifts for Alice", shared: true, filter: TransactionFilter(tags: ["gift"])), by: s.bob))
        #expect(await test.ledger.views(visibleTo: .audit).map(\.name.description) == ["Gifts for Alice"], "the control: readable while Bob is known")
        try await test.ledger.execute([
            s.command(.removeMember(personID: s.bob, acknowledgeUnsettled: true)),
            s.command(.forgetPerson(personID: s.bob)),
        ])
        let views = await test.ledger.views(visibleTo: .audit)
        #expect(views.count == 1 && views.allSatisfy { $0.name.isRedacted }, "\(views.map(\.name))")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.views(visibleTo: .audit).allSatisfy { $0.name.isRedacted }, "replayed from the journal, the key is gone")
        try await reopened.close()
    }

    @Test("US-058, T5: undo of a rename puts the name back, of a delete saves the view again, of a first save deletes it; the views survive the checkpoint and a reopen")
    func undoAndReopen() async throws {
        var (test, s) = try await Self.household()
        let id: ViewID = s.ids.next()
        let save = s.command(.saveView(viewID: id, name: "Groceries", filter: TransactionFilter(categoryIDs: [s.groceries])))
        let rename = s.command(.renameView(viewID: id, name: "Food"))
        let delete = s.command(.deleteView(viewID: id))
        try await test.ledger.execute([save, rename])
        #expect(try await test.ledger.view(id, visibleTo: .member(s.alice)).name.description == "Food")
        try await test.ledger.execute(s.command(.undo(targetCommandID: rename.commandID)))
        #expect(try await test.ledger.view(id, visibleTo: .member(s.alice)).name.description == "Groceries")
        try await test.ledger.execute(delete)
        #expect(await test.ledger.views(visibleTo: .audit).isEmpty)
        try await test.ledger.execute(s.command(.undo(targetCommandID: delete.commandID)))
        let back = try await test.ledger.view(id, visibleTo: .member(s.alice))
        #expect(back.name.description == "Groceries" && back.filter.categoryIDs == [s.groceries])
        let state = await test.ledger.state
        // The transactions of the round trip are archived in its store, so the whole states differ
        // in residency; the views and the undo history are what this test is about.
        let copy = try state.checkpointRoundTrip()
        #expect(copy.views == state.views && copy.history == state.history, "the views and their undo history round-trip through the state checkpoint")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await reopened.views(visibleTo: .member(s.alice)) == [back])
        let other: ViewID = s.ids.next()
        let saveOther = s.command(.saveView(viewID: other, name: "Other"))
        try await reopened.execute(saveOther)
        try await reopened.execute(s.command(.undo(targetCommandID: saveOther.commandID)))
        #expect(await reopened.views(visibleTo: .audit) == [back], "undo of a first save deletes the view")
        try await reopened.close()
    }
}
