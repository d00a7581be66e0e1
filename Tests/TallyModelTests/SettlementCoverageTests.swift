import TallyModel
import Testing

@Suite("Settlement coverage")
struct SettlementCoverageTests {
    static func owed(_ minorUnits: Int64) -> SettlementCoverage.Item { .init(isOwedByPayer: true, minorUnits: minorUnits) }
    static func credit(_ minorUnits: Int64) -> SettlementCoverage.Item { .init(isOwedByPayer: false, minorUnits: minorUnits) }

    @Test("S6: a payment of at least the net debt covers every open item, credits included")
    func fullPaymentCoversEverything() {
        #expect(SettlementCoverage.covered([Self.owed(60), Self.credit(20), Self.owed(30)], payment: 70, netOwed: 70) == [0, 1, 2])
        #expect(SettlementCoverage.covered([Self.owed(60)], payment: 100, netOwed: 60) == [0], "an advance covers too")
    }

    @Test("S6: a smaller payment covers the receiver's items, then the payer's oldest first while each fits whole")
    func partialPaymentOldestFirst() {
        // 60 + 30 owed, 10 credit: a payment of 55 makes 65 available: the 60 fits, the 30 does not.
        #expect(SettlementCoverage.covered([Self.owed(60), Self.credit(10), Self.owed(30)], payment: 55, netOwed: 80) == [0, 1])
    }

    @Test("S6: the first of the payer's items that does not fit stops the coverage (strictly oldest first)")
    func stopsAtFirstMisfit() {
        #expect(SettlementCoverage.covered([Self.owed(60), Self.owed(30)], payment: 40, netOwed: 90) == [])
    }

    @Test("S6: a payer who owes nothing net settles no item, not even the receiver's (an advance)")
    func advanceSettlesNothing() {
        #expect(SettlementCoverage.covered([Self.credit(100)], payment: 10, netOwed: -100) == [])
        #expect(SettlementCoverage.covered([Self.owed(30), Self.credit(30)], payment: 5, netOwed: 0) == [])
    }

    @Test("S6: earlier payments that covered no item count: paying the rest of the balance covers everything")
    func earlierPaymentsCount() {
        // 60 + 30 owed; 40 was paid earlier without covering an item, so the balance is 50.
        #expect(SettlementCoverage.covered([Self.owed(60), Self.owed(30)], payment: 50, netOwed: 50) == [0, 1])
        // Paying 25 of the 50: 40 + 25 = 65 available covers the 60, not the 30.
        #expect(SettlementCoverage.covered([Self.owed(60), Self.owed(30)], payment: 25, netOwed: 50) == [0])
    }
}
