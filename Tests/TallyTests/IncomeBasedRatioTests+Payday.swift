@testable import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// S4, Flow US-067: an income-based split ratio is recalculated at every period start, from the
/// period just closed, and falls back to the manual ratios when no income is known.
extension IncomeBasedRatioTests {
    static func basisPoints(_ ratios: [MemberRatio]) -> [PersonID: Int64] {
        Dictionary(uniqueKeysWithValues: ratios.map { ($0.person, $0.ratio.basisPoints) })
    }

    @Test("US-067/S4: in income-based mode every period start recalculates the ratio from the closed period's incomes (SplitRatioRecalculated after PeriodClosed), and falls back to the manual ratios without income")
    func incomeBasedRatioIsRecalculatedAtEveryPayday() async throws {
        var (test, s) = try await EditingTests.household()  // monthly from the 1st: January is open
        let manual = [s.ratio(Scenario.alice, 5_000), s.ratio(Scenario.bob, 5_000)]
        let switchCommand = s.command(.setSplitRatio(mode: .incomeBased, ratios: manual))
        let before = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(switchCommand)
        let switched = try await EditingTests.payloads(test.ledger, after: before)
        #expect(switched.map(\.tag) == [.splitRatioSet, .splitRatioRecalculated], "the switch recalculates at once")
        #expect(await test.ledger.splitRatio().isFallback, "no closed period yet: the manual ratios")
        try await test.ledger.execute([
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 600_000, Scenario.alice, on: "2026-01-10"))),
            s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 400_000, Scenario.bob, on: "2026-01-12"))),
        ])

        s.advance(to: "2026-02-02")  // payday: January closes before the next command
        let february = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
        let payday = try await EditingTests.payloads(test.ledger, after: february)
        #expect(payday.map(\.tag) == [.periodClosed, .splitRatioRecalculated, .transactionRecorded])
        let status = await test.ledger.splitRatio()
        #expect(status.mode == .incomeBased && !status.isFallback)
        #expect(status.recalculatedForPeriodStart == Scenario.date("2026-02-01"))
        #expect(Self.basisPoints(status.ratios) == [Scenario.alice: 6_000, Scenario.bob: 4_000], "January's incomes 6,000 and 4,000")
        #expect(Self.basisPoints(status.manualRatios) == [Scenario.alice: 5_000, Scenario.bob: 5_000])
        #expect(Self.basisPoints(try #require(await test.ledger.state.splitRatio).ratios) == [Scenario.alice: 6_000, Scenario.bob: 4_000])

        s.advance(to: "2026-03-03")  // February had no income: back to the manual ratios
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
        let fallback = await test.ledger.splitRatio()
        #expect(fallback.isFallback && fallback.recalculatedForPeriodStart == Scenario.date("2026-03-01"))
        #expect(Self.basisPoints(fallback.ratios) == [Scenario.alice: 5_000, Scenario.bob: 5_000])
    }

    @Test("US-067/S4/T5: manual mode never recalculates; undoing the switch to income-based brings the manual mode back, and later paydays recalculate nothing")
    func manualModeNeverRecalculates() async throws {
        var (test, s) = try await EditingTests.household()
        let manual = [s.ratio(Scenario.alice, 7_000), s.ratio(Scenario.bob, 3_000)]
        try await test.ledger.execute(s.command(.setSplitRatio(mode: .manual, ratios: manual)))
        let switchCommand = s.command(.setSplitRatio(mode: .incomeBased, ratios: manual))
        try await test.ledger.execute(switchCommand)
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: Self.income(s, 500_000, Scenario.bob, on: "2026-01-10"))))
        try await test.ledger.execute(s.command(.undo(targetCommandID: switchCommand.commandID)))
        let undone = await test.ledger.splitRatio()
        #expect(undone.mode == .manual && Self.basisPoints(undone.ratios) == [Scenario.alice: 7_000, Scenario.bob: 3_000])
        s.advance(to: "2026-02-02")
        let february = await test.ledger.lastSequenceNumber
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: s.expense(1_000))))
        let payday = try await EditingTests.payloads(test.ledger, after: february)
        #expect(payday.map(\.tag) == [.periodClosed, .transactionRecorded])
        #expect(Self.basisPoints(await test.ledger.splitRatio().ratios) == [Scenario.alice: 7_000, Scenario.bob: 3_000])
    }

    @Test("US-067/S1: the manual ratios given with an income-based setSplitRatio are checked even when income decides the ratio")
    func incomeBasedModeChecksTheManualRatios() async throws {
        var (test, s) = try await EditingTests.household()
        let bad = [s.ratio(Scenario.alice, 9_950), s.ratio(Scenario.bob, 50)]
        await #expect(throws: LedgerError.self) {
            try await test.ledger.execute(s.command(.setSplitRatio(mode: .incomeBased, ratios: bad)))
        }
    }
}
