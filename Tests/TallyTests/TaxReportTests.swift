import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Tax categories (SeedCoverage "Future: Swiss tax categorization (Pillar 3a, work expenses)" and
/// "Phase 5 business: business vs personal, tax categories"): `setCategoryTaxClass` records
/// `CategoryTaxClassSet` (undoable, T5); `ledger.taxReport(year:visibleTo:)` sums the live
/// transactions a viewer sees per tax class, in the base currency (G2, G7).
@Suite("Tax report")
struct TaxReportTests {
    static func classes(_ report: TaxReport) -> [String] {
        report.classes.map { "\($0.taxClass) +\($0.income.minorUnits) -\($0.expense.minorUnits) #\($0.count)" }
    }

    @Test("Future Swiss tax categorization, Phase 5 business, T5: setCategoryTaxClass files a category's transactions of the year under its class; deleted transactions and other years do not count; undo puts back the class before")
    func taxClassesAndUndo() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("tax-report", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        #expect(try await test.ledger.taxReport(year: 2026, visibleTo: .audit).classes.isEmpty)
        let medical = s.command(.setCategoryTaxClass(categoryID: s.groceries, taxClass: .medical))
        try await test.ledger.execute(medical)
        try await test.ledger.execute(s.command(.setCategoryTaxClass(categoryID: s.salary, taxClass: .business)))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 12_000, "2026-02-01"))))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 3_000, "2026-12-31"))))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 99_000, "2025-12-31"))))
        let deleted: TransactionID = s.ids.next()
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: deleted, entry: PlanningTests.expense(s, 50_000, "2026-03-01"))))
        try await test.ledger.execute(s.command(.deleteTransaction(transactionID: deleted)))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
            kind: .income, amount: Scenario.chf(400_000), walletID: s.joint, categoryID: s.salary, date: Scenario.date("2026-04-25"), payer: s.alice))))
        let report = try await test.ledger.taxReport(year: 2026, visibleTo: .member(s.alice))
        #expect(report.currency == .chf)
        #expect(Self.classes(report) == ["business +400000 -0 #1", "medical +0 -15000 #2"])
        #expect(report.classes.last?.categories.map(\.categoryID) == [s.groceries])
        #expect(Self.classes(try await test.ledger.taxReport(year: 2025, visibleTo: .audit)) == ["business +0 -0 #0", "medical +0 -99000 #1"])

        #expect(await test.ledger.readModels.budgets.categoryList().first { $0.categoryID == s.groceries }?.taxClass == .medical)
        let pillar = s.command(.setCategoryTaxClass(categoryID: s.groceries, taxClass: .pillar3a))
        try await test.ledger.execute(pillar)
        #expect(Self.classes(try await test.ledger.taxReport(year: 2026, visibleTo: .audit)) == ["pillar3a +0 -15000 #2", "business +400000 -0 #1"])
        try await test.ledger.execute(s.command(.undo(targetCommandID: pillar.commandID)))
        #expect(Self.classes(try await test.ledger.taxReport(year: 2026, visibleTo: .audit)) == ["business +400000 -0 #1", "medical +0 -15000 #2"])
        try await test.ledger.execute(s.command(.undo(targetCommandID: medical.commandID)))
        #expect(await test.ledger.readModels.budgets.categoryList().first { $0.categoryID == s.groceries }?.taxClass == nil)
        #expect(Self.classes(try await test.ledger.taxReport(year: 2026, visibleTo: .audit)) == ["business +400000 -0 #1"])
        try await test.ledger.execute(s.command(.setCategoryTaxClass(categoryID: s.salary)))
        #expect(try await test.ledger.taxReport(year: 2026, visibleTo: .audit).classes.isEmpty)
    }

    @Test("Future Swiss tax categorization, C1, G6: an unknown category is unknownCategory, the class it has already categoryStateUnchanged, a year outside 1...9999 invalidQuery")
    func rejections() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("tax-report-rules", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        await expectRejection(test.ledger, s.command(.setCategoryTaxClass(categoryID: s.ids.next(), taxClass: .charitable)), code: "unknownCategory", rule: "C1")
        await expectRejection(test.ledger, s.command(.setCategoryTaxClass(categoryID: s.groceries)), code: "categoryStateUnchanged", rule: "C3")
        await #expect(throws: LedgerError.self) { try await test.ledger.taxReport(year: 10_000, visibleTo: .audit) }
    }

    @Test("Future Swiss tax categorization, G7, G2: the report of a member counts only the transactions they see (another member's own wallet and personal expenses are not theirs), converted into the base currency at the year's last day, a currency without a rate reported missing")
    func privacyAndConversion() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("tax-report-g7", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())  // Euro card: Alice's own
        try await test.ledger.execute(s.command(.setCategoryTaxClass(categoryID: s.restaurants, taxClass: .workExpense)))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: PlanningTests.expense(s, 2_000, "2026-05-01", category: s.restaurants))))
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: TransactionEntry(
            kind: .expense, amount: Scenario.eur(1_000), walletID: s.euroCard, categoryID: s.restaurants, date: Scenario.date("2026-05-02"), payer: s.alice))))
        let before = try await test.ledger.taxReport(year: 2026, visibleTo: .member(s.alice))
        #expect(Self.classes(before) == ["workExpense +0 -2000 #2"])
        #expect(before.missingRates == [.eur])
        try await test.ledger.execute(s.command(.setExchangeRate(exchangeRate: PlanningTests.rate("0.95"), asOf: Scenario.date("2026-12-31"))))
        let alice = try await test.ledger.taxReport(year: 2026, visibleTo: .member(s.alice))
        #expect(Self.classes(alice) == ["workExpense +0 -2950 #2"])
        #expect(alice.missingRates.isEmpty)
        let bob = try await test.ledger.taxReport(year: 2026, visibleTo: .member(s.bob))
        #expect(Self.classes(bob) == ["workExpense +0 -0 #0"], "Alice's own card and her personal expense are not Bob's to see")
    }
}
