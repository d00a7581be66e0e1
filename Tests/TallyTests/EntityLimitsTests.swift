import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Host-set caps on live entities (Drishti E11-S4, E6-S11, E8-S5 free tier: 3 accounts,
/// 2 goals, 1 scenario; Swiff Phase 5 premium: 10 subscriptions): `LedgerOptions.entityLimits`,
/// checked on new commands only (`entityLimitReached`, G6), never on replay.
@Suite("Entity limits")
struct EntityLimitsTests {
    static func wallet(_ s: inout Scenario, _ name: String) -> Command {
        s.command(.openWallet(walletID: s.ids.next(), name: name, kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-02")))
    }

    static func goal(_ s: inout Scenario, _ name: String) -> (GoalID, Command) {
        let id: GoalID = s.ids.next()
        return (id, s.command(.createGoal(goalID: id, goal: GoalDefinition(name: name, target: Scenario.chf(100_000)))))
    }

    @Test("E11-S4, G6: with wallets=3 the fourth open wallet is entityLimitReached, naming the cap; closing one frees a place; reopening it counts again")
    func walletCap() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("limits-wallets", limits: EntityLimits([.wallets: 3]))
        try await test.ledger.execute(s.setup())  // two wallets
        let third: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(
            walletID: third, name: "Cash", kind: .cash, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-02"))))
        await expectRejection(test.ledger, Self.wallet(&s, "Fourth"), code: "entityLimitReached", rule: "G6")
        do {
            try await test.ledger.execute(Self.wallet(&s, "Fourth"))
            Issue.record("a fourth wallet was accepted")
        } catch {
            #expect(error.message.contains("3 wallets of the 3"))
            #expect(error.message.contains("--limit wallets=N"))
        }
        let close = s.command(.closeWallet(walletID: third, closedOn: Scenario.date("2026-01-03")))
        try await test.ledger.execute(close)
        try await test.ledger.execute(Self.wallet(&s, "Fourth"))
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: close.commandID)), code: "entityLimitReached", rule: "G6")
        await expectRejection(test.ledger, s.command(.reopenWallet(walletID: third)), code: "entityLimitReached", rule: "G6")
    }

    @Test("E8-S5, G6: a batch counts its own earlier commands: two goals in one batch with goals=1 is refused whole")
    func batchCountsItsOwnCommands() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("limits-batch", limits: EntityLimits([.goals: 1]))
        try await test.ledger.execute(s.setup())
        let before = await test.ledger.lastSequenceNumber
        await expectRejection(test.ledger, [Self.goal(&s, "Trip").1, Self.goal(&s, "House").1], code: "entityLimitReached", rule: "G6")
        #expect(await test.ledger.lastSequenceNumber == before)
        try await test.ledger.execute(Self.goal(&s, "Trip").1)
    }

    @Test("E11-S4, E6-S11: a journal above a lowered cap opens and replays whole; it keeps what it has and takes no more of that kind; an undo cannot pass the cap")
    func capNeverRefusesHistory() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("limits-history")
        try await test.ledger.execute(s.setup())
        let goals = [Self.goal(&s, "Trip"), Self.goal(&s, "House"), Self.goal(&s, "Car")]
        try await test.ledger.execute(goals.map(\.1))
        try await test.ledger.close()
        let capped = try await test.reopen(limits: EntityLimits([.goals: 2, .wallets: 1]))
        #expect(await capped.readModels.goals.liveGoalCount == 3)
        #expect(await capped.state.wallets.count == 2)
        await expectRejection(capped, Self.goal(&s, "Boat").1, code: "entityLimitReached", rule: "G6")
        let delete = s.command(.deleteGoal(goalID: goals[0].0))
        try await capped.execute(delete)
        try await capped.execute(s.command(.deleteGoal(goalID: goals[1].0)))
        await expectRejection(capped, Self.wallet(&s, "Cash"), code: "entityLimitReached", rule: "G6")
        try await capped.execute(s.command(.undo(targetCommandID: delete.commandID)))  // 1 live -> 2: within the cap
        try await capped.close()
        let again = try await test.reopen(limits: EntityLimits([.goals: 2]))
        await expectRejection(again, Self.goal(&s, "Boat").1, code: "entityLimitReached", rule: "G6")
        try await again.close()
    }

    @Test("Phase 5 premium, R1, G6: subscriptions=1: a second template is refused; cancelling frees the place; undoing the cancel then is refused")
    func subscriptionCap() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("limits-subscriptions", limits: EntityLimits([.subscriptions: 1]))
        try await test.ledger.execute(s.setup())
        let first: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: first, frequency: .monthly, entry: SubscriptionTests.entry(s, 1000, anchor: "2026-01-05"))))
        let second = s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: SubscriptionTests.entry(s, 500, anchor: "2026-01-05")))
        await expectRejection(test.ledger, second, code: "entityLimitReached", rule: "G6")
        let cancel = s.command(.cancelTemplate(templateID: first, effectiveOn: Scenario.date("2026-03-01")))
        try await test.ledger.execute(cancel)
        try await test.ledger.execute(second)
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: cancel.commandID)), code: "entityLimitReached", rule: "G6")
    }

    @Test("T5, G6: undoing a createTemplate pauses the subscription, which still holds its place (Docs/Engine.md); cancelling it frees the place")
    func undoneCreationKeepsItsPlace() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("limits-undone-creation", limits: EntityLimits([.subscriptions: 1]))
        try await test.ledger.execute(s.setup())
        let first: TemplateID = s.ids.next()
        let create = s.command(.createTemplate(templateID: first, frequency: .monthly, entry: SubscriptionTests.entry(s, 1000, anchor: "2026-01-05")))
        try await test.ledger.execute(create)
        try await test.ledger.execute(s.command(.undo(targetCommandID: create.commandID)))
        #expect(await test.ledger.state.templates[first]?.schedule.pauses.isEmpty == false)
        let second = s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: SubscriptionTests.entry(s, 500, anchor: "2026-01-05")))
        await expectRejection(test.ledger, second, code: "entityLimitReached", rule: "G6")
        try await test.ledger.execute(s.command(.cancelTemplate(templateID: first, effectiveOn: Scenario.date("2026-03-01"))))
        try await test.ledger.execute(second)
    }

    @Test("H3, S7, R3, G6: people, groups and scenarios are capped as what is live")
    func peopleGroupsScenarios() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("limits-people", limits: EntityLimits([.people: 3, .groups: 1, .scenarios: 0]))
        try await test.ledger.execute(s.setup())  // Alice, Bob
        try await test.ledger.execute(s.command(.addPerson(personID: Scenario.carol, name: "Carol")))
        await expectRejection(test.ledger, s.command(.addPerson(personID: Scenario.dave, name: "Dave")), code: "entityLimitReached", rule: "G6")
        try await test.ledger.execute(s.command(.archivePerson(personID: Scenario.carol)))
        try await test.ledger.execute(s.command(.addPerson(personID: Scenario.dave, name: "Dave")))
        await expectRejection(test.ledger, s.command(.unarchivePerson(personID: Scenario.carol)), code: "entityLimitReached", rule: "G6")
        try await test.ledger.execute(s.command(.createGroup(groupID: s.ids.next(), name: "Trip", members: [s.alice, s.bob])))
        await expectRejection(test.ledger, s.command(.createGroup(groupID: s.ids.next(), name: "Flat", members: [s.alice, s.bob])),
                              code: "entityLimitReached", rule: "G6")
        let scenario = ScenarioSaved(
            scenarioID: s.ids.next(), name: "Raise", monthlyIncomeDelta: Scenario.chf(10_000), monthlyExpenseDelta: Scenario.chf(0), lumpSums: [])
        await expectRejection(test.ledger, s.command(.saveScenario(scenario: scenario)), code: "entityLimitReached", rule: "G6")
    }

    @Test("CLI form: kind=count parses; an unknown kind or a bad count names what is accepted")
    func parsesKindEqualsCount() throws {
        var limits = EntityLimits.none
        try limits.parse("wallets=3")
        try limits.parse("subscriptions=10")
        #expect(limits[.wallets] == 3)
        #expect(limits[.subscriptions] == 10)
        #expect(throws: EntityLimitsParseError.self) { try limits.parse("accounts=3") }
        #expect(throws: EntityLimitsParseError.self) { try limits.parse("wallets=-1") }
        #expect(EntityLimits([.goals: -2])[.goals] == 0)
    }
}
