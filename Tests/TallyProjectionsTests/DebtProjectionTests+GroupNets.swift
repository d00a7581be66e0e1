@testable import TallyProjections
import TallyModel
import TallyTestSupport
import Testing

/// The group member balances come from the running totals (``GroupNets``), not from a scan of
/// the group's history; the engine's validation reads the same totals (H4, S6, S8:
/// ``DebtProjection/groupBalance(_:person:currency:)``, ``DebtProjection/openGroupBalances(of:)``).
extension DebtProjectionTests {
    @Test(
        "S7, H4, S8: groupBalances, read from the running totals, and the balances validation reads equal the scan of every live expense and settlement of the group, all along 3,000 random group events (edits, deletions, restorations, settlements, members added and removed); checkpoint + tail == full",
        arguments: [UInt64(1), 2, 3])
    func groupBalancesEqualTheScan(seed: UInt64) throws {
        var s = Scenario()
        var history = RandomGroupHistory(seed: seed)
        history.append(3_000, to: &s)
        let events = s.events
        var models = Projections()
        for (index, event) in events.enumerated() {
            models.apply(event, sequenceNumber: UInt64(index + 1))
            if index % 500 == 0 || index == events.count - 1 {
                try Self.expectScan(models.debts, events[...index], groups: history.groups, "seed \(seed), event \(index)")
            }
        }
        #expect(models.debts.problems.isEmpty, "seed \(seed): \(models.debts.problems.prefix(3))")
        let half = events.count / 2
        let restored = try Projections(encodedState: Projections().folding(events.prefix(half)).encodedState())
            .folding(events.dropFirst(half), firstSequenceNumber: UInt64(half + 1))
        #expect(restored == models, "seed \(seed): checkpoint + tail == full")
        #expect(try Projections(encodedState: models.encodedState()) == models)
    }

    /// Every group's balances from `debts` equal ``GroupBalanceScan``'s over `events`: the same
    /// currencies, the same people in person order, the same five sums; the balance validation
    /// reads is the same, and each person's open group balances are the scan's non-zero ones.
    static func expectScan(_ debts: DebtProjection, _ events: some Sequence<Event>, groups: [GroupID], _ context: String) throws {
        let scan = GroupBalanceScan.balances(events)
        var open: [PersonID: [(group: GroupID, balance: Money)]] = [:]
        for group in groups {
            let balances = try debts.groupBalances(group)
            let expected = scan[group] ?? [:]
            #expect(Set(balances.keys) == Set(expected.keys), "\(context): currencies of group \(group)")
            for (currency, list) in balances {
                let wanted = expected[currency] ?? [:]
                #expect(list.map(\.person) == wanted.keys.sorted(), "\(context): the people of group \(group) in \(currency), in person order")
                for line in list {
                    let totals = wanted[line.person] ?? GroupBalanceScan.Totals()
                    let found = [line.paid, line.owed, line.settlementsPaid, line.settlementsReceived, line.balance].map { Int128($0.minorUnits) }
                    let sums = [totals.paid, totals.owed, totals.settlementsPaid, totals.settlementsReceived, totals.balance]
                    #expect(found == sums, "\(context): \(line.person) in group \(group), \(currency)")
                    let validated = debts.groupBalance(group, person: line.person, currency: currency)
                    #expect(Int128(validated) == totals.balance, "\(context): validation's balance of \(line.person) in \(group), \(currency)")
                    if totals.balance != 0 { open[line.person, default: []].append((group, Money(minorUnits: validated, currency: currency))) }
                }
            }
        }
        for person in ProjectionPropertyTests.people {
            let expected = (open[person] ?? []).sorted { ($0.group, $0.balance.currency) < ($1.group, $1.balance.currency) }
            let found = debts.openGroupBalances(of: person)
            #expect(found.map(\.group) == expected.map(\.group) && found.map(\.balance) == expected.map(\.balance),
                    "\(context): open group balances of \(person) (H4, S8)")
        }
    }

    @Test("S7: groupBalances reads none of the group's history: with every expense and settlement in the checkpoint archive, it reads nothing from it and gives the same balances and plan")
    func groupBalancesReadNoHistory() throws {
        var s = Scenario()
        var history = RandomGroupHistory(seed: 7)
        history.append(2_000, to: &s)
        var projections = Projections()
        projections.apply(s.events, firstSequenceNumber: 1)
        let archive = CountingArchive(rows: Array(projections.archiveRows))
        var archived = try Projections(encodedState: projections.encodedState(archived: true))
        archived.attach(archive)
        #expect(archived.debts.groupExpenses.isResident == false)
        for group in history.groups {
            #expect(try archived.debts.groupBalances(group) == projections.debts.groupBalances(group))
            #expect(try archived.debts.settlementPlan(group) == projections.debts.settlementPlan(group))
        }
        #expect(archive.reads == 0, "the balances read \(archive.reads) times from the archive")
        _ = archived.debts.groupExpenses(in: history.groups[0])
        #expect(archive.reads > 0, "the expense list does read the archive (the counter works)")
    }

    @Test("S7, G1: a member's totals past Int64.max are kept exactly (Int128, never wrapped); the read reports an overflow, and a deletion brings them back exactly")
    func groupTotalsPastInt64AreExact() throws {
        var s = Scenario()
        let groupID: GroupID = s.id()
        s.add(.groupCreated(GroupCreated(groupID: groupID, name: "Large", members: [S.alice, S.bob])))
        var expenseIDs: [GroupExpenseID] = []
        for _ in 0..<2 {
            let id: GroupExpenseID = s.id()
            expenseIDs.append(id)
            s.add(.groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: id, groupID: groupID, paidBy: S.alice, amount: chf(.max), date: d("2026-02-01"), note: nil,
                split: .exact([PersonShare(person: S.bob, amount: chf(.max))]), owed: [PersonShare(person: S.bob, amount: chf(.max))])))
        }
        var debts = s.fold(DebtProjection.self)
        let alice = debts.groupNets.totals(of: S.alice, in: groupID, currency: .chf)
        #expect(alice.paid == 2 * Int128(Int64.max) && alice.balance == 2 * Int128(Int64.max))
        #expect(debts.groupNets.totals(of: S.bob, in: groupID, currency: .chf).balance == -2 * Int128(Int64.max))
        #expect(throws: ProjectionError.overflow(rule: "S7", subject: "group balance of \(S.alice)")) { try debts.groupBalances(groupID) }
        #expect(try Projections(encodedState: s.readModels.encodedState()).debts == debts, "the Int128 totals round-trip")
        s.add(.groupExpenseDeleted(GroupExpenseDeleted(expenseID: expenseIDs[0])))
        debts = s.fold(DebtProjection.self)
        let balances = try #require(try debts.groupBalances(groupID)[.chf])
        #expect(Dictionary(uniqueKeysWithValues: balances.map { ($0.person, $0.balance) }) == [S.alice: chf(.max), S.bob: chf(-.max)])
    }
}

/// An in-memory checkpoint archive that counts what is read from it.
final class CountingArchive: ArchiveSource, @unchecked Sendable {
    // @unchecked: used by one test on one task; the counter is never shared across threads.
    private let spaces: [UInt8: [(key: [UInt8], value: [UInt8])]]
    private(set) var reads = 0
    /// How many entries the range reads returned: what a scan of a whole space costs.
    private(set) var entriesRead = 0

    init(rows: [ArchiveRow]) {
        var spaces: [UInt8: [[UInt8]: [UInt8]]] = [:]
        for row in rows { spaces[row.space, default: [:]][row.key] = row.value }
        self.spaces = spaces.mapValues { $0.map { (key: $0.key, value: $0.value) }.sorted { $0.key.lexicographicallyPrecedes($1.key) } }
    }

    func value(space: UInt8, key: [UInt8]) -> [UInt8]? {
        reads += 1
        return spaces[space]?.first { $0.key == key }?.value
    }

    func entries(space: UInt8, from lower: [UInt8]?, through upper: [UInt8]?) -> [(key: [UInt8], value: [UInt8])] {
        reads += 1
        let found = (spaces[space] ?? []).filter { entry in
            !(lower.map { entry.key.lexicographicallyPrecedes($0) } ?? false)
                && !(upper.map { $0.lexicographicallyPrecedes(entry.key) } ?? false)
        }
        entriesRead += found.count
        return found
    }

    /// The book's entries `filter` selects, as the store's index on its table finds them (only
    /// those count as read).
    func bookEntries(matching filter: BookFilter) -> [(key: [UInt8], value: [UInt8])] {
        reads += 1
        let found = (spaces[ArchiveSpace.transactions.rawValue] ?? []).filter { entry in
            var reader = BinaryReader(entry.value)
            guard let record = try? TransactionRecord(archive: &reader) else { return false }
            switch filter {
            case .category(let category): return record.details.categoryID == category
            case .dated(let range): return range.contains(record.details.date)
            case .payee: return true  // a superset, which the caller filters (the key is the store's)
            }
        }
        entriesRead += found.count
        return found
    }

    func failDecoding(_ reason: String) {}
}
