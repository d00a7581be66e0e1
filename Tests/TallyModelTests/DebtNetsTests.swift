import TallyModel
import Testing

/// ``DebtNets`` is the one household netting rule: the engine's validation (H4, S6) and the
/// debt read model (S5) both keep it.
@Suite("Debt nets")
struct DebtNetsTests {
    static let alice = PersonID(UUIDValue(high: 0, low: 1))
    static let bob = PersonID(UUIDValue(high: 0, low: 2))
    static let carol = PersonID(UUIDValue(high: 0, low: 3))

    static func shared(_ kind: TransactionKind, _ minorUnits: Int64, payer: PersonID, shares: [(PersonID, Int64)]) -> TransactionDetails {
        TransactionDetails(
            kind: kind, amount: Money(minorUnits: minorUnits, currency: .chf), walletID: WalletID(UUIDValue(high: 1, low: 1)),
            categoryID: CategoryID(UUIDValue(high: 2, low: 1)), date: LocalDate.min, note: nil, tags: [], payer: payer,
            split: TransactionSplit(ratios: [], isOverride: false, shares: shares.map {
                PersonShare(person: $0.0, amount: Money(minorUnits: $0.1, currency: .chf))
            }))
    }

    static func settlement(from: PersonID, to: PersonID, _ minorUnits: Int64) -> SettlementRecorded {
        SettlementRecorded(
            settlementID: SettlementID(UUIDValue(high: 3, low: 1)), from: from, to: to,
            amount: Money(minorUnits: minorUnits, currency: .chf), date: .min, covers: nil, isAdvance: false, groupID: nil)
    }

    @Test("S5: shared expenses net per pair: each sharer owes the payer their share, both ways offset")
    func expensesNetPerPair() {
        var nets = DebtNets()
        nets.add(Self.shared(.expense, 10_000, payer: Self.alice, shares: [(Self.alice, 5_000), (Self.bob, 5_000)]), sign: 1)
        nets.add(Self.shared(.expense, 3_000, payer: Self.bob, shares: [(Self.alice, 2_000), (Self.bob, 1_000)]), sign: 1)
        #expect(nets.owed(by: Self.bob, to: Self.alice, in: .chf) == 3_000)
        #expect(nets.owed(by: Self.alice, to: Self.bob, in: .chf) == -3_000)
        #expect(nets.owed(by: Self.bob, to: Self.alice, in: .eur) == 0)
        #expect(nets.nets(of: Self.alice).map(\.other) == [Self.bob])
    }

    @Test("S5/T3: removing a transaction (sign -1) takes back exactly what it added; no zero entry stays")
    func removalUndoesAddition() {
        var nets = DebtNets()
        let expense = Self.shared(.expense, 9_000, payer: Self.alice, shares: [(Self.alice, 3_000), (Self.bob, 3_000), (Self.carol, 3_000)])
        nets.add(expense, sign: 1)
        #expect(nets.owed(by: Self.carol, to: Self.alice, in: .chf) == 3_000)
        nets.add(expense, sign: -1)
        #expect(nets.nets.isEmpty)
    }

    @Test("S5: a shared income makes the payer owe the others their shares")
    func sharedIncomeIsOwedByThePayer() {
        var nets = DebtNets()
        nets.add(Self.shared(.income, 4_000, payer: Self.alice, shares: [(Self.alice, 2_000), (Self.bob, 2_000)]), sign: 1)
        #expect(nets.owed(by: Self.alice, to: Self.bob, in: .chf) == 2_000)
    }

    @Test("S6: a settlement lowers what its payer owes; past zero the receiver owes the payer (an advance)")
    func settlementLowersTheDebt() {
        var nets = DebtNets()
        nets.add(Self.shared(.expense, 10_000, payer: Self.alice, shares: [(Self.alice, 5_000), (Self.bob, 5_000)]), sign: 1)
        nets.add(Self.settlement(from: Self.bob, to: Self.alice, 2_000))
        #expect(nets.owed(by: Self.bob, to: Self.alice, in: .chf) == 3_000)
        nets.add(Self.settlement(from: Self.bob, to: Self.alice, 4_000))
        #expect(nets.owed(by: Self.alice, to: Self.bob, in: .chf) == 1_000)
    }
}
