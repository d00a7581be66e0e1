import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Issue 31 item 4 (Swiff 1.2.3, 1.2.4, 1.1.2 Subscription, 1.3.3): a recurring item edited for
/// every future occurrence (name, category, wallet, tags, a new cycle that moves the next
/// billing), its profile, and the billing status of posted occurrences (R1, T2).
@Suite("Subscription editing (R1, Swiff 1.2.3)")
struct SubscriptionEditingTests {
    static func monthly(_ test: TestLedger, _ s: inout Scenario, anchor: String = "2026-01-05") async throws -> TemplateID {
        let template: TemplateID = s.ids.next()
        var entry = SubscriptionTests.entry(s, 1500, anchor: anchor)
        entry.note = "Streaming"
        try await test.ledger.execute(s.command(.createTemplate(templateID: template, frequency: .monthly, entry: entry)))
        return template
    }

    static func savingsWallet(_ test: TestLedger, _ s: inout Scenario) async throws -> WalletID {
        let wallet: WalletID = s.ids.next()
        try await test.ledger.execute(s.command(.openWallet(
            walletID: wallet, name: "Card", kind: .card, openingBalance: Scenario.chf(0), openedOn: Scenario.date("2026-01-01"))))
        return wallet
    }

    @Test("Swiff 1.2.3 this and all future: occurrences before the edit keep the old name, category and wallet; later ones are posted with the new")
    func editAppliesFromItsDateOn() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("subscription-editing", durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let template = try await Self.monthly(test, &s)
        let card = try await Self.savingsWallet(test, &s)
        _ = try await SubscriptionTests.post(test, &s, through: "2026-02-10")
        try await test.ledger.execute(s.command(.editTemplate(
            templateID: template, effectiveFrom: Scenario.date("2026-03-01"), name: "Streaming HD", categoryID: s.restaurants,
            walletID: card, tags: ["tv"])))
        _ = try await SubscriptionTests.post(test, &s, through: "2026-04-30")
        let rows = try await test.ledger.transactions(TransactionQuery(visibleTo: .audit)).rows.sorted { $0.transaction.date < $1.transaction.date }
        #expect(rows.map(\.transaction.date.isoString) == ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"])
        #expect(rows.map { $0.note?.description } == ["Streaming", "Streaming", "Streaming HD", "Streaming HD"])
        #expect(rows.map(\.transaction.categoryID) == [s.groceries, s.groceries, s.restaurants, s.restaurants])
        #expect(rows.map(\.transaction.walletID) == [s.joint, s.joint, card, card])
        #expect(rows.map(\.tags) == [[], [], ["tv"], ["tv"]])
        let item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-02-20"), visibleTo: .audit).first)
        #expect(item.note == "Streaming HD" && item.walletID == card && item.categoryID == s.restaurants, "the list shows the latest fields")
    }

    @Test("R1: an edit never reaches back over a posted occurrence, nor before the anchor, nor on a cancelled item; an empty edit is refused")
    func editRules() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await Self.monthly(test, &s)
        _ = try await SubscriptionTests.post(test, &s, through: "2026-02-05")
        await expectRejection(test.ledger, s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-02-05"), name: "New")),
                              code: "occurrenceAlreadyPosted", rule: "R1")
        await expectRejection(test.ledger, s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-03-01"), name: "Streaming")),
                              code: "templateStateUnchanged", rule: "T4")
        await expectRejection(test.ledger, s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-03-01"), categoryID: s.salary)),
                              code: "categoryGroupMismatch", rule: "T1")
        await expectRejection(test.ledger, s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-03-01"), walletID: s.euroCard)),
                              code: "currencyMismatch", rule: "W6")
        try await test.ledger.execute(s.command(.cancelTemplate(templateID: template, effectiveOn: Scenario.date("2026-04-01"))))
        await expectRejection(test.ledger, s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-04-02"), name: "Late")),
                              code: "templateCancelled", rule: "R1")
    }

    @Test("Swiff 1.2.3: a cycle change moves the next billing: monthly on the 5th becomes yearly from Mar 20, and the monthly equivalent follows")
    func cycleChangeMovesTheNextBilling() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await Self.monthly(test, &s)
        _ = try await SubscriptionTests.post(test, &s, through: "2026-02-28")
        try await test.ledger.execute(s.command(.editTemplate(
            templateID: template, effectiveFrom: Scenario.date("2026-03-01"), cycle: .yearly, nextBilling: Scenario.date("2026-03-20"))))
        let item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-02-20"), visibleTo: .audit).first)
        #expect(item.next?.date == Scenario.date("2026-03-20"), "the monthly Mar 5 is gone: the next billing moved")
        #expect(item.frequency == .monthly, "on Feb 20 the monthly cycle is still in effect")
        let later = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-04-01"), visibleTo: .audit).first)
        #expect(later.frequency == .yearly && later.monthlyEquivalent.minorUnits == 125 && later.next?.date == Scenario.date("2027-03-20"))
        _ = try await SubscriptionTests.post(test, &s, through: "2028-01-01")
        #expect(try await SubscriptionTests.history(test, template).map(\.0) == ["2026-01-05", "2026-02-05", "2026-03-20", "2027-03-20"])
        // Moving the billing day with another cycle: monthly on the 10th from Feb 2028.
        try await test.ledger.execute(s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2028-02-10"), cycle: .monthly)))
        await expectRejection(test.ledger, s.command(.editTemplate(
            templateID: template, effectiveFrom: Scenario.date("2028-05-01"), nextBilling: Scenario.date("2028-05-02"))), code: "recurringTermsInvalid", rule: "R1")
        #expect(try await test.ledger.upcomingOccurrences(from: Scenario.date("2028-01-02"), days: 70, visibleTo: .audit).map(\.date.isoString)
            == ["2028-02-10", "2028-03-10"])
    }

    @Test("R1, T5: undoing a field edit restores the fields in effect before; a profile is set whole and undone; a cycle change is not undoable")
    func undoOfEdits() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await Self.monthly(test, &s)
        let edit = s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-03-01"), name: "Renamed"))
        try await test.ledger.execute(edit)
        try await test.ledger.execute(s.command(.undo(targetCommandID: edit.commandID)))
        #expect(await test.ledger.subscriptions(on: Scenario.date("2026-04-01"), visibleTo: .audit).first?.note == "Streaming")
        try await test.ledger.execute(s.command(.setTemplateProfile(
            templateID: template, description: "Family plan", website: "https://example.com", paymentMethod: "Visa 4242", icon: "tv", color: "#E50914")))
        let profile = s.command(.setTemplateProfile(templateID: template, website: "https://example.org"))
        try await test.ledger.execute(profile)
        var item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-04-01"), visibleTo: .audit).first)
        #expect(item.website == "https://example.org" && item.description == nil && item.paymentMethod == nil, "absent fields are removed")
        try await test.ledger.execute(s.command(.undo(targetCommandID: profile.commandID)))
        item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-04-01"), visibleTo: .audit).first)
        #expect(item.description == "Family plan" && item.paymentMethod == "Visa 4242" && item.icon == "tv" && item.color == "#E50914")
        let cycle = s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-03-01"), cycle: .weekly))
        try await test.ledger.execute(cycle)
        await expectRejection(test.ledger, s.command(.undo(targetCommandID: cycle.commandID)), code: "notUndoable", rule: "T5")
    }

    @Test("Swiff 1.3.3: a posted occurrence is marked pending, then failed; the billing history shows it; an unposted date is refused; state survives a reopen")
    func billingStatus() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await Self.monthly(test, &s)
        _ = try await SubscriptionTests.post(test, &s, through: "2026-02-05")
        try await test.ledger.execute(s.command(.markOccurrenceBilling(templateID: template, date: Scenario.date("2026-02-05"), status: .pending)))
        try await test.ledger.execute(s.command(.markOccurrenceBilling(templateID: template, date: Scenario.date("2026-02-05"), status: .failed)))
        await expectRejection(test.ledger, s.command(.markOccurrenceBilling(templateID: template, date: Scenario.date("2026-03-05"), status: .paid)),
                              code: "notAnOccurrence", rule: "T4")
        await expectRejection(test.ledger, s.command(.markOccurrenceBilling(templateID: template, date: Scenario.date("2026-01-05"), status: .paid)),
                              code: "templateStateUnchanged", rule: "T4")
        #expect(try await test.ledger.billingHistory(of: template, visibleTo: .audit).map(\.status) == [.paid, .failed])
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(try await reopened.billingHistory(of: template, visibleTo: .audit).map(\.status) == [.paid, .failed])
        try await reopened.close()
    }

    @Test("R1: a cycle change on the anchor (nothing posted) replaces the first cycle: dates and the reported cycle agree")
    func cycleChangeOnTheAnchor() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await Self.monthly(test, &s, anchor: "2026-03-01")
        try await test.ledger.execute(s.command(.editTemplate(
            templateID: template, effectiveFrom: Scenario.date("2026-03-01"), cycle: .yearly, nextBilling: Scenario.date("2026-03-15"))))
        let item = try #require(await test.ledger.subscriptions(on: Scenario.date("2026-03-01"), visibleTo: .audit).first)
        #expect(item.frequency == .yearly && item.next?.date == Scenario.date("2026-03-15"))
        _ = try await SubscriptionTests.post(test, &s, through: "2027-06-30")
        #expect(try await SubscriptionTests.history(test, template).map(\.0) == ["2026-03-15", "2027-03-15"])
    }

    @Test("T5: undoing an edit that replaced a later one puts the later one back; an undo that would file the item under a deleted category is refused (C3)")
    func undoRestoresReplacedEdits() async throws {
        var (test, s) = try await SubscriptionTests.household()
        let template = try await Self.monthly(test, &s)
        try await test.ledger.execute(s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-03-01"), categoryID: s.restaurants)))
        let earlier = s.command(.editTemplate(templateID: template, effectiveFrom: Scenario.date("2026-02-01"), name: "Renamed"))
        try await test.ledger.execute(earlier)
        try await test.ledger.execute(s.command(.undo(targetCommandID: earlier.commandID)))
        _ = try await SubscriptionTests.post(test, &s, through: "2026-03-31")
        let state = await test.ledger.state
        let posted = try #require(state.templates[template]?.posted)
        let categories = posted.compactMap { state.transactions[$0.transactionID]?.details.categoryID }
        #expect(categories == [s.groceries, s.groceries, s.restaurants], "March keeps the later edit's category")
        let notes = posted.compactMap { state.transactions[$0.transactionID]?.details.note?.description }
        #expect(notes == ["Streaming", "Streaming", "Streaming"])
    }
}
