import TallyModel
@testable import TallyProjections
import TallyTestSupport
import Testing

/// The read models keep each transaction once (issue 28, "one fold, one store"): one book that
/// ``Projections`` folds and the wallet, debt and budget read models read.
@Suite("Read models: one transaction book")
struct TransactionBookTests {
    typealias S = Scenario

    @Test("T1-T3: a checkpoint's archive holds each transaction once for the read models (one book row, one date-index entry per date it had), none per wallet, debt or budget read model")
    func oneRowPerTransaction() throws {
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 100_000)
        var ids: [TransactionID] = []
        for day in 1...9 {
            ids.append(s.expense(1_000 * Int64(day), wallet: joint, on: "2026-02-0\(day)", shares: [(S.alice, 500 * Int64(day)), (S.bob, 500 * Int64(day))]))
        }
        s.edit(ids[0], S.details(.expense, 4_200, .chf, wallet: joint, category: S.restaurants, on: "2026-02-20", payer: S.alice))
        s.delete(ids[1])
        s.restore(ids[1])
        let models = s.readModels
        let rows = Array(models.archiveRows)
        let book = rows.filter { $0.space == ArchiveSpace.readModelTransactions.rawValue }
        #expect(book.count == ids.count, "one row per transaction, edits included")
        #expect(Set(book.map(\.key)).count == ids.count)
        #expect(rows.filter { $0.space == 10 || $0.space == 14 }.isEmpty, "no per-read-model copy (the old debt and budget spaces)")
        let dated = rows.filter { $0.space == ArchiveSpace.budgetDatedTransactions.rawValue }
        #expect(dated.count == ids.count + 1, "one date-index entry per (date, transaction): the edit moved one")
        let record = try #require(models.transactions[ids[0]])
        #expect(record.details.amount == S.chf(4_200) && record.isLive)
        #expect(models.wallets.transactions == models.transactions && models.debts.transactions == models.transactions
            && models.budgets.transactions == models.transactions, "the read models read the bundle's book")
        #expect(try Projections(encodedState: models.encodedState()) == models, "the book round-trips once")
    }

    @Test("T1, W1, S3: a transaction one read model cannot use (shares that do not sum) is kept by none: the wallet balance, the debts and the budget agree, and the debt read model says why")
    func unusableTransactionIsKeptByNone() throws {
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 100_000)
        s.add(.paydaySet(PaydaySet(day: 1, effectiveFrom: d("2026-01-01"))))
        let bad = s.expense(3_000, wallet: joint, on: "2026-02-03", shares: [(S.alice, 1_000), (S.bob, 1_000)])
        s.expense(2_000, wallet: joint, on: "2026-02-04")
        let models = s.readModels
        #expect(models.transactions[bad] == nil)
        #expect(models.wallets.transaction(bad) == nil)
        #expect(try models.wallets.balance(of: joint) == S.chf(98_000), "only the usable expense counts")
        #expect(try models.debts.householdBalances().isEmpty)
        let budget = try models.budgets.budget(for: models.budgets.period(containing: d("2026-02-03")))
        #expect(budget.categories.first { $0.categoryID == S.groceries }?.spent == S.chf(2_000))
        #expect(models.debts.problems.map(\.rule) == ["S3"])
        // An edit of the refused transaction is an edit of an unknown one for every read model.
        s.edit(bad, S.details(.expense, 3_000, .chf, wallet: joint, category: S.groceries, on: "2026-02-03", payer: S.alice))
        let edited = s.readModels
        #expect(edited.transactions[bad] == nil)
        #expect(edited.wallets.problems.map(\.rule) == ["T2"] && edited.budgets.problems.map(\.rule) == ["T2"])
    }

    @Test("C3, B6: deleting a category with reassignment moves its spending in the budget (also through a second deletion) without rewriting any transaction; the record keeps the category it was recorded with")
    func categoryReassignmentIsAMapping() throws {
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 100_000)
        s.add(.paydaySet(PaydaySet(day: 1, effectiveFrom: d("2026-01-01"))))
        let id = s.expense(2_500, wallet: joint, category: S.restaurants, on: "2026-02-03")
        s.add(.categoryDeleted(CategoryDeleted(categoryID: S.restaurants, reassignedTo: S.savings)))
        var models = s.readModels
        let period = models.budgets.period(containing: d("2026-02-03"))
        func spent(_ models: Projections, _ category: CategoryID) throws -> Money? {
            try models.budgets.budget(for: period).categories.first { $0.categoryID == category }?.spent
        }
        #expect(try spent(models, S.savings) == S.chf(2_500))
        #expect(try spent(models, S.restaurants) == nil, "the deleted category has no line")
        #expect(models.transactions[id]?.details.categoryID == S.restaurants, "history is not rewritten")
        s.add(.categoryDeleted(CategoryDeleted(categoryID: S.savings, reassignedTo: S.groceries)))
        models = s.readModels
        #expect(try spent(models, S.groceries) == S.chf(2_500), "a chain of reassignments ends at the live category")
        #expect(try Projections(encodedState: models.encodedState()) == models)
    }
}
