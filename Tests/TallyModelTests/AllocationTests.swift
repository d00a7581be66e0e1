import PropertyBased
import Testing
import TallyModel

@Suite("Allocation")
struct AllocationTests {
    /// Person ids in ascending byte order: a < b < c.
    static let people: [PersonID] = (0..<20).map { PersonID(UUIDValue(high: 0, low: UInt64($0 + 1))) }
    static let (a, b, c) = (people[0], people[1], people[2])

    static func chf(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .chf) }

    @Test("S3: CHF 100.01 at 50/50 paid by A gives A 50.01, B 50.00")
    func payerGetsTheOddUnit() throws {
        let shares = try Allocation.split(Self.chf(10_001), weights: [(Self.a, 5000), (Self.b, 5000)], payer: Self.a)
        #expect(shares.map(\.amount) == [Self.chf(5001), Self.chf(5000)])
        let paidByB = try Allocation.split(Self.chf(10_001), weights: [(Self.a, 5000), (Self.b, 5000)], payer: Self.b)
        #expect(paidByB.map(\.amount) == [Self.chf(5000), Self.chf(5001)])
    }

    @Test("S3: 60/40 of CHF 100 gives 60.00 and 40.00")
    func sixtyForty() throws {
        let ratios = [MemberRatio(person: Self.a, ratio: try .percent(60)), MemberRatio(person: Self.b, ratio: try .percent(40))]
        let shares = try Allocation.split(Self.chf(10_000), ratios: ratios, payer: nil)
        #expect(shares.map(\.amount) == [Self.chf(6000), Self.chf(4000)])
    }

    @Test("S3: 3-way equal split of 100.00 gives 33.34 to the payer, else to the lowest id")
    func threeWayEqual() throws {
        let withPayer = try Allocation.splitEqually(Self.chf(10_000), among: [Self.a, Self.b, Self.c], payer: Self.c)
        #expect(withPayer.map(\.amount) == [Self.chf(3333), Self.chf(3333), Self.chf(3334)])
        let noPayer = try Allocation.splitEqually(Self.chf(10_000), among: [Self.c, Self.b, Self.a], payer: nil)
        #expect(noPayer.map(\.amount) == [Self.chf(3333), Self.chf(3333), Self.chf(3334)])
        #expect(noPayer[2].person == Self.a)
    }

    @Test("S3: among equal remainders the larger weight wins before the payer")
    func largerShareBeatsPayer() throws {
        // 0.05 split 2:1:1 -> exact 0.025, 0.0125, 0.0125 -> floors 2, 1, 1; remainders .5, .25, .25.
        let shares = try Allocation.split(Self.chf(5), weights: [(Self.a, 2), (Self.b, 1), (Self.c, 1)], payer: Self.c)
        #expect(shares.map(\.amount) == [Self.chf(3), Self.chf(1), Self.chf(1)])
        // 0.02 split 1:1:2 -> remainders equal (.5, .5, 0 after floors 0,0,1): payer then lowest id.
        let tie = try Allocation.split(Self.chf(3), weights: [(Self.a, 1), (Self.b, 1), (Self.c, 1)], payer: Self.b)
        #expect(tie.map(\.amount) == [Self.chf(1), Self.chf(1), Self.chf(1)])
        let four = try Allocation.split(Self.chf(2), weights: [(Self.a, 1), (Self.b, 1), (Self.c, 1)], payer: Self.c)
        #expect(four.map(\.amount) == [Self.chf(1), Self.chf(0), Self.chf(1)])
    }

    @Test("S3/S7: 20 people sharing CHF 100.07 equally each get 5.00 or 5.01 and the sum is exact")
    func twentyPeople() throws {
        let shares = try Allocation.splitEqually(Self.chf(10_007), among: Self.people, payer: Self.people[19])
        #expect(try Money.sum(shares.map(\.amount), currency: .chf) == Self.chf(10_007))
        #expect(shares.filter { $0.amount == Self.chf(501) }.count == 7)
        #expect(shares[19].amount == Self.chf(501))
        #expect(shares[5].amount == Self.chf(501) && shares[6].amount == Self.chf(500))  // payer + 6 lowest ids
    }

    @Test("S3: negative amounts split symmetrically")
    func negativeAmounts() throws {
        let shares = try Allocation.split(Self.chf(-10_001), weights: [(Self.a, 5000), (Self.b, 5000)], payer: Self.a)
        #expect(shares.map(\.amount) == [Self.chf(-5001), Self.chf(-5000)])
        let extreme = try Allocation.split(Self.chf(.min), weights: [(Self.a, 1), (Self.b, 0)], payer: nil)
        #expect(extreme.map(\.amount) == [Self.chf(.min), Self.chf(0)])
    }

    @Test("S3: invalid inputs are typed errors")
    func invalidInputs() {
        #expect(throws: ModelError.self) { try Allocation.split(Self.chf(1), weights: [], payer: nil) }
        #expect(throws: ModelError.self) { try Allocation.split(Self.chf(1), weights: [(Self.a, 0)], payer: nil) }
        #expect(throws: ModelError.self) { try Allocation.split(Self.chf(1), weights: [(Self.a, -1), (Self.b, 2)], payer: nil) }
        #expect(throws: ModelError.self) { try Allocation.split(Self.chf(1), weights: [(Self.a, 1), (Self.a, 1)], payer: nil) }
        #expect(throws: ModelError.self) { try Allocation.split(Self.chf(1), weights: [(Self.a, .max), (Self.b, 1)], payer: nil) }
    }

    @Test("B3: 50/30/20 of CHF 1000.01 gives needs 500.01, wants 300.00, savings 200.00")
    func fiftyThirtyTwenty() {
        let split = Allocation.fiftyThirtyTwenty(Self.chf(100_001))
        #expect(split.needs == Self.chf(50_001))
        #expect(split.wants == Self.chf(30_000))
        #expect(split.savings == Self.chf(20_000))
    }

    @Test("S3: shares always sum exactly to the amount and differ from the exact share by less than one unit")
    func sharesSumExactly() async {
        let input = zip(
            Gen.int64(in: -1_000_000_000_000...1_000_000_000_000),
            Gen.int64(in: 0...10_000).array(of: 1...20),
            Gen.int(in: 0...19))
        await propertyCheck(count: 500, input: input) { amount, weights, payerIndex in
            let weighted = weights.enumerated().map { (Self.people[$0.offset], $0.element) }
            guard weights.reduce(0, +) > 0 else { return }
            let payer = Self.people[payerIndex]
            let shares = try Allocation.split(Self.chf(amount), weights: weighted, payer: payer)
            let total = shares.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
            #expect(total == amount)
            let weightSum = Int128(weights.reduce(0, +))
            for (share, weight) in zip(shares, weights) {
                let exactTimesTotal = Int128(amount) * Int128(weight)
                let difference = Int128(share.amount.minorUnits) * weightSum - exactTimesTotal
                #expect(difference.magnitude < UInt128(weightSum))
            }
        }
    }
}
