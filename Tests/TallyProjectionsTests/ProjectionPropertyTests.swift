import PropertyBased
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

@Suite("Projection properties")
struct ProjectionPropertyTests {
    static let people = [Scenario.alice, Scenario.bob, Scenario.carol, Scenario.dave]

    @Test("S8: every group's member balances sum to exactly zero; S5: pairwise debts are antisymmetric")
    func debtInvariants() async {
        await propertyCheck(count: 60, input: Gen.int64(in: 0...Int64.max)) { seed in
            let household = RandomHousehold(seed: UInt64(seed), steps: 80)
            let debts = household.scenario.fold(DebtProjection.self)
            #expect(debts.problems.isEmpty)
            for groupID in debts.groupIDs {
                try Self.checkGroup(debts, groupID)
            }
            for a in Self.people {
                for b in Self.people {
                    let forward = try debts.owed(by: a, to: b, in: .chf).minorUnits
                    let backward = try debts.owed(by: b, to: a, in: .chf).minorUnits
                    #expect(forward == -backward)
                }
            }
        }
    }

    static func checkGroup(_ debts: DebtProjection, _ groupID: GroupID) throws {
        let plans = try debts.settlementPlan(groupID)
        for (currency, balances) in try debts.groupBalances(groupID) {
            #expect(balances.reduce(Int64(0)) { $0 + $1.balance.minorUnits } == 0)
            let nonZero = balances.filter { !$0.balance.isZero }.count
            let plan = plans[currency] ?? []
            #expect(plan.count <= max(0, nonZero - 1))
            var remaining: [PersonID: Int64] = [:]
            for balance in balances { remaining[balance.person] = balance.balance.minorUnits }
            for transfer in plan {
                remaining[transfer.from, default: 0] += transfer.amount.minorUnits
                remaining[transfer.to, default: 0] -= transfer.amount.minorUnits
            }
            #expect(remaining.values.allSatisfy { $0 == 0 })
        }
    }

    @Test("W3: every wallet balance is opening + signed sum of live transactions and transfers")
    func walletBalanceFormula() async {
        await propertyCheck(count: 60, input: Gen.int64(in: 0...Int64.max)) { seed in
            let household = RandomHousehold(seed: UInt64(seed), steps: 80)
            let wallets = household.scenario.fold(WalletProjection.self)
            for wallet in household.wallets {
                let derived = try wallets.balance(of: wallet.id)?.minorUnits
                let expected = household.expectedBalance(wallet.id)
                #expect(derived == expected)
            }
        }
    }

    @Test("B6: a frozen snapshot equals the live report computed at its close and never changes")
    func snapshotsFrozen() async {
        await propertyCheck(count: 40, input: Gen.int64(in: 0...Int64.max)) { seed in
            let events = RandomHousehold(seed: UInt64(seed), steps: 80).scenario.events
            let full = BudgetProjection.folded(events)
            for (index, event) in events.enumerated() {
                guard case .periodClosed(let closed) = event.payload else { continue }
                let period = PayPeriod(start: closed.periodStart, end: closed.periodEnd)
                let before = BudgetProjection.folded(events.prefix(index))
                let snapshot = try full.budget(for: period)
                let atClose = try before.report(for: period, isFinal: true)
                #expect(snapshot == atClose)
            }
        }
    }

    @Test("Checkpoint: restore at a random point + tail == full fold, byte for byte (state and canonical JSON)")
    func checkpointPlusTailEqualsFullFold() async {
        await propertyCheck(count: 40, input: Gen.int64(in: 0...Int64.max), Gen.int(in: 0...100)) { seed, percent in
            let events = RandomHousehold(seed: UInt64(seed), steps: 60).scenario.events
            let split = events.count * percent / 100
            var full = Projections()
            full.apply(events, firstSequenceNumber: 1)
            var head = Projections()
            head.apply(events.prefix(split), firstSequenceNumber: 1)
            var restored = try Projections(encodedState: head.encodedState())
            #expect(restored == head)
            restored.apply(events.dropFirst(split), firstSequenceNumber: UInt64(split) + 1)
            #expect(restored.encodedState() == full.encodedState())
            #expect(try restored.canonicalJSON().serialized() == full.canonicalJSON().serialized())
            var again = Projections()
            again.apply(events, firstSequenceNumber: 1)
            #expect(try again.canonicalJSON().serialized() == full.canonicalJSON().serialized())
        }
    }

    /// The state encoding is not canonical (a flipped bool or enum byte decodes to the same
    /// value, a flipped key reorders a sorted list) and carries no checksum: the checkpoint file
    /// around it does (CRC32C, `Checkpoint`). What the decoder owes is a typed error or a
    /// well-formed state, one whose encoding decodes back to itself.
    @Test("Checkpoint: truncated bytes are invalidCheckpoint; flipped bytes are invalidCheckpoint or a state whose encoding round-trips")
    func damagedCheckpoint() async {
        await propertyCheck(count: 20, input: Gen.int64(in: 0...Int64.max)) { seed in
            var projections = Projections()
            projections.apply(RandomHousehold(seed: UInt64(seed), steps: 30).scenario.events, firstSequenceNumber: 1)
            let bytes = projections.encodedState()
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) {
                #expect { try Projections(encodedState: Array(bytes.prefix(cut))) } throws: { Self.isInvalidCheckpoint($0) }
                var flipped = bytes
                flipped[cut] ^= 0xFF
                do throws(ProjectionError) {
                    let restored = try Projections(encodedState: flipped)
                    let encoded = restored.encodedState()
                    #expect(try Projections(encodedState: encoded) == restored, "seed \(seed), byte \(cut)")
                    #expect(try Projections(encodedState: encoded).encodedState() == encoded, "seed \(seed), byte \(cut)")
                } catch {
                    #expect(Self.isInvalidCheckpoint(error), "seed \(seed), byte \(cut): \(error)")
                }
            }
        }
    }

    static func isInvalidCheckpoint(_ error: any Error) -> Bool {
        guard case .invalidCheckpoint(let reason)? = error as? ProjectionError else { return false }
        return !reason.isEmpty
    }
}
