import TallyModel
@testable import TallyProjections
import TallyTestSupport
import Testing

/// The read models keep each transaction once (issue 28, "one fold, one store"): one book that
/// ``Projections`` folds and the wallet, debt and budget read models read.
@Suite("Read models: one transaction book")
struct TransactionBookTests {
    typealias S = Scenario

    @Test("T1-T3: a checkpoint writes no row keyed by a transaction (the book is the store's transactions table, which the commits write), none per wallet, debt or budget read model and no index of the book; restored over the book, the read models all read it and follow an edit as a full fold does")
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
        for id in ids {
            let keyed = rows.filter { $0.key == id.archiveBytes }
            #expect(keyed.isEmpty, "no checkpoint row keyed by \(id): the book is the store's table")
        }
        #expect(rows.allSatisfy { $0.space != ArchiveSpace.transactions.rawValue }, "no index of the book beside it: the store's table has them")
        #expect(try Projections(encodedState: models.encodedState()) == models, "the book round-trips once")

        // A checkpoint: the book's entries leave memory for the archive; every read model reads them there.
        let archive = CountingArchive(rows: rows + Self.bookRows(models))
        var archived = try Projections(encodedState: models.encodedState(archived: true))
        archived.attach(archive)
        #expect(archived.transactions.resident.isEmpty && !archived.transactions.isResident)
        for lent in [archived.wallets.transactions, archived.debts.transactions, archived.budgets.transactions] {
            #expect(lent.resident.isEmpty && !lent.isResident, "the lent book follows attach")
        }
        #expect(archived.wallets.transaction(ids[3])?.details.amount == S.chf(4_000))
        #expect(archive.reads > 0, "read from the archive")
        s.edit(ids[2], S.details(.expense, 7_700, .chf, wallet: joint, category: S.groceries, on: "2026-02-25", payer: S.alice, shares: [(S.alice, 3_850), (S.bob, 3_850)]))
        s.delete(ids[4])
        let tail = Array(s.events.suffix(2))
        archived.apply(tail, firstSequenceNumber: UInt64(s.events.count - 1))
        let full = s.readModels
        #expect(try archived.canonicalJSON() == full.canonicalJSON(), "restored + tail == full fold")
        #expect(archived.budgets.transactions == archived.transactions && archived.debts.transactions.resident.count == 2,
                "the edit and the delete are resident in the one book every read model reads")
    }

    /// The book's records as the store's `transactions` table holds them beside a checkpoint
    /// (its commits write them; `LedgerStore.historyValue(space:key:asOf:)` reads them back).
    static func bookRows(_ models: Projections) -> [ArchiveRow] {
        models.transactions.resident.map { ArchiveRow(space: ArchiveSpace.transactions.rawValue, key: $0.key.archiveBytes, value: $0.value.archiveBytes) }
    }

    @Test("T1, W1, S3: a transaction one read model cannot use (shares that do not sum) is kept by none: the wallet balance, the debts and the budget agree, the debt read model says why, and an edit of it is an edit of an unknown transaction for every read model")
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
        #expect(edited.debts.problems.map(\.rule) == ["S3", "T2"])
    }

    @Test("C3, B6: deleting a category with reassignment moves its transactions (the records, filed under the target) and its spending in the budget, also through a second deletion; deleting a deleted category again moves nothing")
    func categoryReassignmentMovesTheRecords() throws {
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
        #expect(models.transactions[id]?.details.categoryID == S.savings, "C3: the record moves to the target")
        s.add(.categoryDeleted(CategoryDeleted(categoryID: S.savings, reassignedTo: S.groceries)))
        models = s.readModels
        #expect(try spent(models, S.groceries) == S.chf(2_500), "a chain of reassignments ends at the live category")
        #expect(models.transactions[id]?.details.categoryID == S.groceries)
        s.add(.categoryDeleted(CategoryDeleted(categoryID: S.restaurants, reassignedTo: S.salary)))
        #expect(try spent(s.readModels, S.groceries) == S.chf(2_500), "deleting a deleted category again moves nothing")
        #expect(s.readModels.transactions[id]?.details.categoryID == S.groceries)
        models = s.readModels
        #expect(try Projections(encodedState: models.encodedState()) == models)
    }

    @Test("C3: with the book in the checkpoint archive, a category deletion with reassignment reads the category's range of the book's category index and the records it moves, not every transaction; the result equals a full fold")
    func categoryReassignmentReadsItsRange() throws {
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 1_000_000)
        s.add(.paydaySet(PaydaySet(day: 1, effectiveFrom: d("2026-01-01"))))
        for day in 1...28 {
            for _ in 0..<10 { s.expense(100, wallet: joint, category: S.groceries, on: String(format: "2026-01-%02d", day)) }
        }
        let moving = (1...3).map { s.expense(2_500, wallet: joint, category: S.restaurants, on: "2026-02-0\($0)") }
        s.add(.periodClosed(PeriodClosed(periodStart: d("2026-02-01"), periodEnd: d("2026-02-28"))))
        let models = s.readModels
        let archive = CountingArchive(rows: Array(models.archiveRows) + Self.bookRows(models))
        var archived = try Projections(encodedState: models.encodedState(archived: true))
        archived.attach(archive)
        s.add(.categoryDeleted(CategoryDeleted(categoryID: S.restaurants, reassignedTo: S.savings)))
        archived.apply(s.events.suffix(1), firstSequenceNumber: UInt64(s.events.count))
        let entriesRead = archive.entriesRead
        #expect(entriesRead < 20, "read \(entriesRead) archived entries for 3 moved transactions among 283")
        #expect(try archived.canonicalJSON() == s.readModels.canonicalJSON(), "restored + deletion == full fold")
        for id in moving { #expect(archived.transactions[id]?.details.categoryID == S.savings) }
        #expect(archived.transactionIDs(in: S.savings) == moving.sorted() && archived.transactionIDs(in: S.restaurants).isEmpty)
    }
}
