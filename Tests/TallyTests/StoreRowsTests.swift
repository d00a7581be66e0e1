import Foundation
import TallyModel
import TallyProjections
@testable import TallyStore
import TallyTestSupport
import Testing

/// The rows a store commit writes off the engine's actor (`StoreRows`, `StoreWriteQueue`): gathered
/// from a snapshot of the read models, merged when commits are handed over while one is written.
@Suite("Store rows gathered for the store writer")
struct StoreRowsTests {
    typealias S = Scenario

    static func changes(_ events: some Sequence<Event>, people: [PersonID] = []) -> StoreChanges {
        var changes = StoreChanges()
        for (offset, event) in events.enumerated() { changes.add(event, sequenceNumber: UInt64(offset + 1)) }
        for person in people { changes.add(Event(
            commandID: CommandID(UUIDValue(high: 9, low: 9)), actor: S.alice, recordedAt: Timestamp(millisecondsSinceEpoch: 0),
            payload: .personUpdated(PersonUpdated(personID: person, name: PersonalText("x", owner: person), email: nil, phone: nil))), sequenceNumber: 0) }
        return changes
    }

    @Test("issue 28 (one fact in one place): the store's books (StoreBook) are exactly the archived spaces the engine treats as store tables (ArchiveSpace.isStoreTable), each with its own table")
    func storeBooksAreTheStoreTableSpaces() {
        #expect(Set(StoreBook.allCases.map(\.space)) == Set(ArchiveSpace.allCases.filter(\.isStoreTable)))
        #expect(Set(StoreBook.allCases.map(\.table)).count == StoreBook.allCases.count)
        for book in StoreBook.allCases { #expect(StoreBook(space: book.space.rawValue) == book) }
    }

    @Test("issue 28 item 3: two gathers merged give the later rows, a row the later gather found absent included, and the later live tables")
    func mergingKeepsTheLaterRows() throws {
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 10_000)
        let id = s.expense(1_000, wallet: joint, on: "2026-02-03")
        let first = StoreSnapshot(readModels: s.readModels, personNames: [S.bob: "Bob"])
        let firstRows = try StoreRows(Self.changes(s.events, people: [S.bob]), from: first)
        s.edit(id, S.details(.expense, 2_500, .chf, wallet: joint, category: S.groceries, on: "2026-02-04", payer: S.alice))
        let second = StoreSnapshot(readModels: s.readModels, personNames: [:])
        let secondRows = try StoreRows(Self.changes(s.events.suffix(1), people: [S.bob]), from: second)
        let merged = firstRows.merging(secondRows)
        #expect(merged.transaction(id)?.details.amount == S.chf(2_500), "the edit's row")
        #expect(merged.name(of: S.bob) == nil, "the later gather found no name: the row goes")
        #expect(firstRows.name(of: S.bob) == "Bob")
        #expect(try merged.walletBalances().first?.balance == S.chf(7_500), "the later balances")
        #expect(Set(merged.allPersonIDs()) == [S.alice, S.bob], "the people either gather named (the household's admin, Bob)")
        #expect(secondRows.merging(firstRows).transaction(id)?.details.amount == S.chf(1_000), "the order decides")
    }

    @Test("C3, issue 28 item 3: two commits merged while the store writer was busy, one recording a transaction in a category and the next deleting that category with a target, file the transaction under the target in the store (its row comes from the earlier gather, with the old category)")
    func mergedCommitsApplyAReassignmentToTheEarlierRows() throws {
        let directory = try TemporaryDirectory("tally-store-merged-reassignment")
        defer { directory.remove() }
        var s = Scenario()
        let joint = s.wallet("Joint", opening: 10_000)
        let id = s.expense(1_000, wallet: joint, category: S.restaurants, on: "2026-02-03")
        let earlier = try StoreRows(Self.changes(s.events), from: StoreSnapshot(readModels: s.readModels, personNames: [:]))
        let recorded = s.events.count
        s.add(.categoryDeleted(CategoryDeleted(categoryID: S.restaurants, reassignedTo: S.groceries)))
        let later = try StoreRows(Self.changes(s.events.suffix(from: recorded)), from: StoreSnapshot(readModels: s.readModels, personNames: [:]))
        #expect(earlier.merging(later).transaction(id)?.details.categoryID == S.restaurants, "the control: the merged row is the earlier gather's")
        let store = try LedgerStore(path: directory.appending("read-side.sqlite").string)
        defer { store.close() }
        try store.replaceAll(from: StoreSnapshot(readModels: Projections(), personNames: [:]), coverage: StoreCoverage(sequenceNumber: 0, chainValue: [UInt8](repeating: 0, count: 32)))
        try store.commit(Self.changes(s.events), rows: earlier.merging(later), coverage: StoreCoverage(sequenceNumber: UInt64(s.events.count), chainValue: [UInt8](repeating: 1, count: 32)))
        var underGroceries = TransactionQuery(visibleTo: .audit)
        underGroceries.categoryIDs = [S.groceries]
        #expect(try store.transactions(underGroceries).rows.map(\.transaction.transactionID) == [id])
        var underRestaurants = TransactionQuery(visibleTo: .audit)
        underRestaurants.categoryIDs = [S.restaurants]
        #expect(try store.transactions(underRestaurants).rows.isEmpty)
        let totals = try store.categoryTotals(byMonth: TransactionQuery(visibleTo: .audit))
        #expect(totals.map(\.categoryID) == [S.groceries] && totals.first?.total == S.chf(1_000), "\(totals)")
    }
}
