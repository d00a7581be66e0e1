@testable import TallyModel
import Testing

/// ``GroupNets`` is the one group balance rule: the engine's validation (H4, S6, S8) and the debt
/// read model (S7 member balances, the S8 plan) both keep it.
@Suite("Group nets")
struct GroupNetsTests {
    static let alice = PersonID(UUIDValue(high: 0, low: 1))
    static let bob = PersonID(UUIDValue(high: 0, low: 2))
    static let carol = PersonID(UUIDValue(high: 0, low: 3))
    static let trip = GroupID(UUIDValue(high: 4, low: 1))
    static let flat = GroupID(UUIDValue(high: 4, low: 2))

    static func expense(_ group: GroupID = trip, paidBy: PersonID, _ minorUnits: Int64, _ currency: Currency = .chf, owed: [(PersonID, Int64)]) -> GroupExpenseRecorded {
        let parts = owed.map { PersonShare(person: $0.0, amount: Money(minorUnits: $0.1, currency: currency)) }
        return GroupExpenseRecorded(
            expenseID: GroupExpenseID(UUIDValue(high: 5, low: 1)), groupID: group, paidBy: paidBy,
            amount: Money(minorUnits: minorUnits, currency: currency), date: .min, note: nil, split: .exact(parts), owed: parts)
    }

    static func settlement(_ group: GroupID? = trip, from: PersonID, to: PersonID, _ minorUnits: Int64) -> SettlementRecorded {
        SettlementRecorded(
            settlementID: SettlementID(UUIDValue(high: 3, low: 1)), from: from, to: to,
            amount: Money(minorUnits: minorUnits, currency: .chf), date: .min, covers: nil, isAdvance: false, groupID: group)
    }

    @Test("S7: an expense adds its amount to the payer's paid and each part to its member's owed; balance = paid - owed")
    func expenseAddsPaidAndOwed() {
        var nets = GroupNets()
        nets.add(Self.expense(paidBy: Self.alice, 9_000, owed: [(Self.alice, 3_000), (Self.bob, 3_000), (Self.carol, 3_000)]), sign: 1)
        let alice = nets.totals(of: Self.alice, in: Self.trip, currency: .chf)
        #expect(alice.paid == 9_000 && alice.owed == 3_000 && alice.balance == 6_000 && alice.mentions == 2)
        #expect(nets.totals(of: Self.bob, in: Self.trip, currency: .chf).balance == -3_000)
        #expect(nets.totals(of: Self.bob, in: Self.trip, currency: .eur) == GroupNets.Totals())
        #expect(nets.members(of: Self.trip).map(\.member.person) == [Self.alice, Self.bob, Self.carol])
        #expect(nets.members(of: Self.flat).isEmpty)
    }

    @Test("S7, T3: removing an expense (sign -1) takes back exactly what it added; no empty entry or group stays")
    func removalUndoesAddition() {
        var nets = GroupNets()
        let expense = Self.expense(paidBy: Self.alice, 1_001, owed: [(Self.alice, 501), (Self.bob, 500)])
        nets.add(expense, sign: 1)
        nets.add(expense, sign: -1)
        #expect(nets.groups.isEmpty)
        #expect(nets == GroupNets())
    }

    @Test("S7: a member whose part is zero stays listed while the expense is live, with zero sums")
    func zeroPartIsListed() {
        var nets = GroupNets()
        let expense = Self.expense(paidBy: Self.alice, 100, owed: [(Self.alice, 100), (Self.carol, 0)])
        nets.add(expense, sign: 1)
        let carol = nets.totals(of: Self.carol, in: Self.trip, currency: .chf)
        #expect(carol.mentions == 1 && carol.balance == 0 && carol.owed == 0)
        #expect(nets.members(of: Self.trip).map(\.member.person).contains(Self.carol))
        #expect(nets.balances(of: Self.carol).isEmpty, "a zero balance is not an open one")
        nets.add(expense, sign: -1)
        #expect(nets.members(of: Self.trip).isEmpty)
    }

    @Test("S8: a group settlement adds to its payer's settlements paid and its receiver's received; a household settlement changes nothing")
    func settlementMovesBothBalances() {
        var nets = GroupNets()
        nets.add(Self.expense(paidBy: Self.alice, 1_000, owed: [(Self.alice, 500), (Self.bob, 500)]), sign: 1)
        nets.add(Self.settlement(nil, from: Self.bob, to: Self.alice, 500))
        #expect(nets.totals(of: Self.bob, in: Self.trip, currency: .chf).balance == -500)
        nets.add(Self.settlement(from: Self.bob, to: Self.alice, 500))
        let bob = nets.totals(of: Self.bob, in: Self.trip, currency: .chf)
        let alice = nets.totals(of: Self.alice, in: Self.trip, currency: .chf)
        #expect(bob.settlementsPaid == 500 && bob.balance == 0 && alice.settlementsReceived == 500 && alice.balance == 0)
    }

    @Test("S7: open balances of a person are the non-zero ones, sorted by group then currency")
    func openBalancesAreSorted() {
        var nets = GroupNets()
        nets.add(Self.expense(Self.flat, paidBy: Self.alice, 200, .eur, owed: [(Self.bob, 200)]), sign: 1)
        nets.add(Self.expense(Self.trip, paidBy: Self.alice, 300, .eur, owed: [(Self.bob, 300)]), sign: 1)
        nets.add(Self.expense(Self.trip, paidBy: Self.alice, 100, .chf, owed: [(Self.bob, 100)]), sign: 1)
        let open = nets.balances(of: Self.bob)
        #expect(open.map(\.group) == [Self.trip, Self.trip, Self.flat])
        #expect(open.map(\.currency) == [.chf, .eur, .eur])
        #expect(open.map(\.balance) == [-100, -300, -200])
    }

    @Test("S7, G1: sums past Int64.max are exact (Int128, checked), never wrapped")
    func sumsPastInt64AreExact() {
        var nets = GroupNets()
        let large = Self.expense(paidBy: Self.alice, .max, owed: [(Self.bob, .max)])
        for _ in 0..<3 { nets.add(large, sign: 1) }
        #expect(nets.totals(of: Self.alice, in: Self.trip, currency: .chf).balance == 3 * Int128(Int64.max))
        #expect(nets.totals(of: Self.bob, in: Self.trip, currency: .chf).balance == -3 * Int128(Int64.max))
        nets.add(Self.settlement(from: Self.bob, to: Self.alice, .max))
        #expect(nets.totals(of: Self.bob, in: Self.trip, currency: .chf).balance == -2 * Int128(Int64.max))
    }

    @Test("checkpoint guarantee: the wire layout round-trips in (group, currency, person) order; an entry listed twice or with totals no history gives is refused")
    func wireLayout() throws {
        var nets = GroupNets()
        nets.add(Self.expense(Self.flat, paidBy: Self.bob, .max, .eur, owed: [(Self.alice, .max)]), sign: 1)
        nets.add(Self.expense(Self.flat, paidBy: Self.bob, .max, .eur, owed: [(Self.alice, .max)]), sign: 1)
        nets.add(Self.expense(paidBy: Self.alice, 900, owed: [(Self.alice, 300), (Self.bob, 300), (Self.carol, 300)]), sign: 1)
        nets.add(Self.settlement(from: Self.bob, to: Self.alice, 300))
        var writer = BinaryWriter()
        nets.write(to: &writer)
        var reader = BinaryReader(writer.bytes)
        #expect(try GroupNets(from: &reader) == nets)

        func decoded(_ entries: [(GroupID, GroupNets.Member, GroupNets.Totals)]) throws(EventCodecError) -> GroupNets {
            var writer = BinaryWriter()
            writer.writeVarUInt(UInt64(entries.count))
            for (group, member, totals) in entries {
                group.write(to: &writer); member.write(to: &writer); totals.write(to: &writer)
            }
            var reader = BinaryReader(writer.bytes)
            return try GroupNets(from: &reader)
        }
        let member = GroupNets.Member(currency: .chf, person: Self.alice)
        let totals = nets.totals(of: Self.alice, in: Self.trip, currency: .chf)
        #expect(try decoded([(Self.trip, member, totals)]).totals(of: Self.alice, in: Self.trip, currency: .chf) == totals)
        #expect(throws: EventCodecError.self) { try decoded([(Self.trip, member, totals), (Self.trip, member, totals)]) }
        var unnamed = totals
        unnamed.mentions = 0
        #expect(!unnamed.isPossible)
        #expect(throws: EventCodecError.self) { try decoded([(Self.trip, member, unnamed)]) }
        var tooLarge = GroupNets.Totals()
        tooLarge.mentions = 2
        tooLarge.paid = Int128(1) << 64
        #expect(tooLarge.isPossible, "two mentions carry up to 2^64 together")
        tooLarge.paid += 1
        #expect(!tooLarge.isPossible, "two mentions carry at most 2^64 together")
        #expect(throws: EventCodecError.self) { try decoded([(Self.trip, member, tooLarge)]) }
        tooLarge.paid = .max
        tooLarge.owed = .max
        #expect(!tooLarge.isPossible, "sums that overflow together are refused, not trapped on")
        tooLarge.paid = 0
        tooLarge.owed = 0
        tooLarge.mentions = .max
        #expect(!tooLarge.isPossible, "a count past mentionsMax is refused")
    }
}
