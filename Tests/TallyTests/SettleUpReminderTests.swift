import Tally
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Issue 31 item 5 (Swiff 1.3.1 balance, 4.1.3) and item 4 (Swiff 1.2.3, 4.2.1): one balance
/// per person across the household and groups, the settle-up reminder and the price-increase
/// alert (R6, S5, S8, G7).
@Suite("Person balances and reminders (Swiff 1.3.1, 4.1.3, 4.2.1)")
struct SettleUpReminderTests {
    /// The trip (Alice paid CHF 90 for Alice, Bob and Carol: Bob and Carol each owe her 30 in
    /// the group) and a shared household expense of CHF 40 Bob paid (Alice owes him 20, S5).
    static func household() async throws -> (TestLedger, Scenario, GroupID) {
        var (test, s, group, _) = try await GroupExpenseEditingTests.trip()
        var entry = s.expense(4_000, shared: true, payer: s.bob)
        entry.date = Scenario.date("2026-01-06")
        try await test.ledger.execute(s.command(.recordTransaction(transactionID: s.ids.next(), entry: entry)))
        return (test, s, group)
    }

    @Test("Swiff 1.3.1: Alice's balance with Bob nets the household debt (-20) and the trip's plan (+30); with Carol only the trip; Bob's is Alice's mirrored")
    func balancesAcrossHouseholdAndGroups() async throws {
        let (test, s, group) = try await Self.household()
        let alice = try await test.ledger.personBalances(visibleTo: .member(s.alice))
        #expect(alice.map(\.other) == [s.bob, Scenario.carol].sorted())
        let withBob = try #require(alice.first { $0.other == s.bob })
        #expect(withBob.owedToPerson == Scenario.chf(1_000) && withBob.household == Scenario.chf(-2_000) && withBob.groups == [group: Scenario.chf(3_000)])
        let withCarol = try #require(alice.first { $0.other == Scenario.carol })
        #expect(withCarol.owedToPerson == Scenario.chf(3_000) && withCarol.household == Scenario.chf(0))
        let bob = try await test.ledger.personBalances(visibleTo: .member(s.bob))
        #expect(bob.map(\.other) == [s.alice], "G7: Bob gets no pair he is not in (Alice and Carol)")
        #expect(bob.first?.owedToPerson == Scenario.chf(-1_000))
        let audit = try await test.ledger.personBalances(visibleTo: .audit)
        #expect(audit.count == 4, "every pair from both sides: Alice-Bob, Alice-Carol, Bob-Alice, Carol-Alice")
    }

    @Test("Swiff 4.1.3, R6: a balance of at least the threshold either way is a settle-up reminder for the member in it; off without a threshold; a settlement clears it")
    func settleUpReminder() async throws {
        var (test, s, group) = try await Self.household()
        let day = Scenario.date("2026-01-10")
        #expect(try await test.ledger.alerts(on: day, visibleTo: .member(s.alice)).filter(Self.isSettleUp).isEmpty, "off by default")
        try await test.ledger.execute(s.command(.setAlertSettings(settings: AlertSettingsSet(
            budgetThresholds: [], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil, settleUpThreshold: Scenario.chf(2_000)))))
        let alice = try await test.ledger.alerts(on: day, visibleTo: .member(s.alice)).filter(Self.isSettleUp)
        #expect(alice.map(\.kind) == [.settleUp(person: s.alice, other: Scenario.carol, amount: Scenario.chf(3_000))], "Bob's net 10 is under 20")
        #expect(alice.map(\.id) == ["settle/\(s.alice)/\(Scenario.carol)/CHF"])
        #expect(try await test.ledger.alerts(on: day, visibleTo: .member(s.bob)).filter(Self.isSettleUp).isEmpty)
        let audit = try await test.ledger.alerts(on: day, visibleTo: .audit).filter(Self.isSettleUp)
        #expect(audit.count == 1, "the audit read lists each pair once, not from both sides: \(audit.map(\.id))")
        try await test.ledger.execute(s.command(.recordSettlement(
            settlementID: s.ids.next(), from: Scenario.carol, to: s.alice, amount: Scenario.chf(3_000), date: day, groupID: group)))
        #expect(try await test.ledger.alerts(on: day, visibleTo: .member(s.alice)).filter(Self.isSettleUp).isEmpty, "settled")
        await expectRejection(test.ledger, s.command(.setAlertSettings(settings: AlertSettingsSet(
            budgetThresholds: [], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil, settleUpThreshold: Scenario.chf(0)))),
                              code: "alertSettingsInvalid", rule: "R6")
    }

    @Test("Swiff 4.2.1, R6: a price increase is reported within priceIncreaseDays of its date, a decrease never; 0 turns it off")
    func priceIncreaseAlert() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await SubscriptionEditingTests.monthly(test, &s)
        try await test.ledger.execute([
            s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(1_800), effectiveFrom: Scenario.date("2026-02-10"))),
            s.command(.changeTemplatePrice(templateID: template, amount: Scenario.chf(1_200), effectiveFrom: Scenario.date("2026-04-10"))),
        ])
        let increase = LedgerAlert.Kind.priceIncrease(
            templateID: template, effectiveFrom: Scenario.date("2026-02-10"), previous: Scenario.chf(1_500), price: Scenario.chf(1_800))
        #expect(try await test.ledger.alerts(on: Scenario.date("2026-02-03"), visibleTo: .audit).filter(Self.isPriceIncrease).map(\.kind) == [increase])
        #expect(try await test.ledger.alerts(on: Scenario.date("2026-02-17"), visibleTo: .audit).filter(Self.isPriceIncrease).map(\.kind) == [increase])
        #expect(try await test.ledger.alerts(on: Scenario.date("2026-01-20"), visibleTo: .audit).filter(Self.isPriceIncrease).isEmpty)
        #expect(try await test.ledger.alerts(on: Scenario.date("2026-04-10"), visibleTo: .audit).filter(Self.isPriceIncrease).isEmpty, "a decrease")
        try await test.ledger.execute(s.command(.setAlertSettings(settings: AlertSettingsSet(
            budgetThresholds: [], upcomingDays: 0, staleBalanceDays: 0, largeTransaction: nil, priceIncreaseDays: 0))))
        #expect(try await test.ledger.alerts(on: Scenario.date("2026-02-10"), visibleTo: .audit).filter(Self.isPriceIncrease).isEmpty)
    }

    static func isSettleUp(_ alert: LedgerAlert) -> Bool { if case .settleUp = alert.kind { true } else { false } }
    static func isPriceIncrease(_ alert: LedgerAlert) -> Bool { if case .priceIncrease = alert.kind { true } else { false } }
}
