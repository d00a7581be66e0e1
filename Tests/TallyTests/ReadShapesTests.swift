import Testing
import Tally
import TallyTestSupport

/// Issue 30 item 4, "rows that carry names": the debts screen gets people's names with the
/// balances (S5, P3), and the category x month report comes as a table (N4).
@Suite("Read shapes: debts with names, pivoted reports")
struct ReadShapesTests {
    @Test("S5, P3: debts() names both people of every non-zero balance, one row per currency, and a forgotten contact's name reads redacted")
    func debtsCarryNames() async throws {
        let directory = try TemporaryDirectory("tally-debt-names")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"))
        try await ledger.execute(s.setup())
        #expect(try await ledger.debts(visibleTo: .audit).isEmpty, "no shared item, no debt")
        try await ledger.execute(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(10_000, shared: true)), as: s.alice)
        let dora: PersonID = s.ids.next()
        try await ledger.execute(.addPerson(personID: dora, name: "Dora"), as: s.alice)
        var lunch = s.expense(3_000)
        lunch.splitWith = .equal([s.alice, dora])
        lunch.categoryID = s.restaurants
        try await ledger.execute(.recordTransaction(transactionID: s.ids.next(), entry: lunch), as: s.alice)

        let rows = try await ledger.debts(visibleTo: .audit)
        let models = await ledger.auditRead { models in models.debts }
        #expect(rows.count == (try models.householdBalances().filter { !$0.aOwesB.isZero }.count))
        let bob = try #require(rows.first { $0.debtor == s.bob })
        #expect(bob.debtorName == "Bob" && bob.creditor == s.alice && bob.creditorName == "Alice" && bob.amount.isPositive)
        let doraRow = try #require(rows.first { $0.debtor == dora })
        #expect(doraRow.debtorName == "Dora" && doraRow.amount == Scenario.chf(1_500) && doraRow.openItems.count == 1)

        try await ledger.execute(.forgetPerson(personID: dora), as: s.alice)
        let forgotten = try #require(try await ledger.debts(visibleTo: .audit).first { $0.debtor == dora })
        #expect(forgotten.debtorName != "Dora" && forgotten.debtorName != nil, "P3: the name reads redacted, \(String(describing: forgotten.debtorName))")
        try await ledger.close()
    }

    @Test("N4: categoryTotals(byMonth:).pivoted() puts each category in a row and each month in a column, zero where a category had nothing, totals per row")
    func reportPivots() async throws {
        let directory = try TemporaryDirectory("tally-pivot")
        defer { directory.remove() }
        var s = Scenario()
        let ledger = try await Ledger.open(at: directory.appending("ledger"))
        try await ledger.execute(s.setup())
        func spend(_ units: Int64, _ category: CategoryID, on date: String) -> CommandAction {
            var entry = s.expense(units, category: category)
            entry.date = Scenario.date(date)
            return .recordTransaction(transactionID: s.ids.next(), entry: entry)
        }
        try await ledger.execute([
            spend(1_000, s.groceries, on: "2026-01-05"), spend(2_000, s.groceries, on: "2026-01-20"),
            spend(4_000, s.groceries, on: "2026-02-03"), spend(8_000, s.restaurants, on: "2026-02-14"),
        ], as: s.alice)
        var query = TransactionQuery(visibleTo: .audit)
        query.dates = Scenario.date("2026-01-01")...Scenario.date("2026-02-28")
        let cells = try await ledger.categoryTotals(byMonth: query)
        let table = try cells.pivoted()
        #expect(table.spans == [try YearMonth(year: 2026, month: 1), try YearMonth(year: 2026, month: 2)])
        let groceries = try #require(table.rows.first { $0.categoryID == s.groceries })
        #expect(groceries.amounts == [Scenario.chf(3_000), Scenario.chf(4_000)] && groceries.counts == [2, 1] && groceries.total == Scenario.chf(7_000))
        let restaurants = try #require(table.rows.first { $0.categoryID == s.restaurants })
        #expect(restaurants.amounts == [Scenario.chf(0), Scenario.chf(8_000)] && restaurants.total == Scenario.chf(8_000))
        #expect(table.rows.count == 2 && cells.count == 3, "three cells, two rows")
        try await ledger.close()
    }
}
