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
        for event in events { changes.add(event) }
        for person in people { changes.add(Event(
            commandID: CommandID(UUIDValue(high: 9, low: 9)), actor: S.alice, recordedAt: Timestamp(millisecondsSinceEpoch: 0),
            payload: .personUpdated(PersonUpdated(personID: person, name: PersonalText("x", owner: person), email: nil, phone: nil)))) }
        return changes
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
}
