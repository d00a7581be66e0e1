import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Swiff 1.1.2 SharedSubscription (R1): a recurring item shared with members or contacts, equal,
/// percentage, exact or free; each person's cost; who accepted their part (undoable, T5).
@Suite("Shared subscriptions (R1, Swiff 1.1.2 SharedSubscription)")
struct SharedSubscriptionTests {
    static func household(_ label: String) async throws -> (TestLedger, Scenario, carol: PersonID) {
        var s = Scenario()
        let test = try await TestLedger.make(label, durability: .synchronous)
        try await test.ledger.execute(s.setup())
        let carol: PersonID = s.ids.next()
        try await test.ledger.execute(s.command(.addPerson(personID: carol, name: "Carol")))
        return (test, s, carol)
    }

    static func music(_ s: Scenario, _ minorUnits: Int64 = 1_990) -> TransactionEntry {
        var entry = s.expense(minorUnits)
        entry.date = Scenario.date("2026-01-10")
        entry.note = "Music family plan"
        return entry
    }

    static func create(_ s: inout Scenario, _ id: TemplateID, _ sharing: TemplateSharing, price: Int64 = 1_990) -> Command {
        s.command(.createTemplate(templateID: id, frequency: .monthly, entry: Self.music(s, price), terms: TemplateTerms(sharing: sharing)))
    }

    static func subscription(_ ledger: Ledger, _ id: TemplateID, on date: LocalDate, _ viewer: Viewer) async -> Subscription? {
        await ledger.subscriptions(on: date, visibleTo: viewer).first { $0.templateID == id }
    }

    static func equal(_ people: [PersonID]) -> TemplateSharing {
        TemplateSharing(kind: .equal, weights: people.map { MemberWeight(person: $0, weight: 1) })
    }

    @Test("Swiff 1.1.2, R1, S5: shared with a contact, each occurrence makes the contact owe their part to the payer; the cost per person splits the price in effect (a price change re-splits it)")
    func sharedWithAContact() async throws {
        var (test, s, carol) = try await Self.household("shared-sub-contact")
        let id: TemplateID = s.ids.next()
        try await test.ledger.execute(Self.create(&s, id, Self.equal([s.alice, carol])))
        let subscription = try #require(await Self.subscription(test.ledger, id, on: Scenario.date("2026-01-10"), .member(s.alice)))
        #expect(subscription.costPerPerson == [PersonShare(person: s.alice, amount: Scenario.chf(995)), PersonShare(person: carol, amount: Scenario.chf(995))])
        try await test.ledger.execute(s.command(.postDueOccurrences(through: Scenario.date("2026-02-10"))))
        let debts = try await test.ledger.debts(visibleTo: .audit)
        #expect(debts.map { [$0.debtor, $0.creditor] } == [[carol, s.alice]] && debts.first?.amount == Scenario.chf(1_990), "two occurrences, CHF 9.95 each")

        try await test.ledger.execute(s.command(.changeTemplatePrice(templateID: id, amount: Scenario.chf(2_199), effectiveFrom: Scenario.date("2026-03-01"))))
        let raised = try #require(await Self.subscription(test.ledger, id, on: Scenario.date("2026-03-10"), .member(s.alice)))
        #expect(raised.costPerPerson.map(\.amount.minorUnits) == [1_100, 1_099], "the new price split by the same weights, payer first in ties (S3)")
    }

    @Test("Swiff 1.1.2 free: the payer bears the price, the people listed share it at no cost and owe nothing; a free share with only the payer, or a non-zero weight, is refused")
    func freeSharing() async throws {
        var (test, s, carol) = try await Self.household("shared-sub-free")
        let id: TemplateID = s.ids.next()
        let free = TemplateSharing(kind: .free, weights: [MemberWeight(person: carol, weight: 0), MemberWeight(person: s.bob, weight: 0)])
        try await test.ledger.execute(Self.create(&s, id, free))
        let subscription = try #require(await Self.subscription(test.ledger, id, on: Scenario.date("2026-01-10"), .member(s.bob)), "Bob shares it, so he sees it (G7)")
        #expect(subscription.costPerPerson.map(\.amount.minorUnits) == [1_990, 0, 0] && subscription.costPerPerson.first?.person == s.alice)
        try await test.ledger.execute(s.command(.postDueOccurrences(through: Scenario.date("2026-01-31"))))
        #expect(try await test.ledger.debts(visibleTo: .audit).isEmpty, "nobody owes for a free share (S5)")

        let onlyPayer = Self.create(&s, s.ids.next(), TemplateSharing(kind: .free, weights: [MemberWeight(person: s.alice, weight: 0)]))
        await expectRejection(test.ledger, onlyPayer, code: "sharingNeedsTwoMembers", rule: "S2")
        let weighted = Self.create(&s, s.ids.next(), TemplateSharing(kind: .free, weights: [MemberWeight(person: carol, weight: 1)]))
        await expectRejection(test.ledger, weighted, code: "recurringTermsInvalid", rule: "R1")
    }

    @Test("R1, P3: a forgotten contact cannot join a sharing, and takes no part of occurrences posted after they are forgotten")
    func forgottenContact() async throws {
        var (test, s, carol) = try await Self.household("shared-sub-forgotten")
        let id: TemplateID = s.ids.next()
        try await test.ledger.execute(Self.create(&s, id, Self.equal([s.alice, s.bob, carol]), price: 3_000))
        try await test.ledger.execute(s.command(.forgetPerson(personID: carol)))
        let after = try #require(await Self.subscription(test.ledger, id, on: Scenario.date("2026-01-10"), .audit))
        #expect(after.costPerPerson.map(\.person) == [s.alice, s.bob] && after.costPerPerson.map(\.amount.minorUnits) == [1_500, 1_500])
        await expectRejection(test.ledger, Self.create(&s, s.ids.next(), Self.equal([s.alice, carol])), code: "personForgotten", rule: "P3")
    }

    @Test("Swiff 1.1.2 isAccepted: a member answers for themselves, the payer for a contact; someone not in the sharing or an answer for another member is refused; undo takes it back (T5)")
    func acceptance() async throws {
        var (test, s, carol) = try await Self.household("shared-sub-accept")
        let id: TemplateID = s.ids.next()
        try await test.ledger.execute(Self.create(&s, id, Self.equal([s.alice, s.bob, carol])))
        try await test.ledger.execute(s.command(.setSharingAcceptance(templateID: id, person: s.bob, accepted: true), by: s.bob))
        let carolAccepts = s.command(.setSharingAcceptance(templateID: id, person: carol, accepted: true))
        try await test.ledger.execute(carolAccepts)
        #expect(await Self.subscription(test.ledger, id, on: Scenario.date("2026-01-10"), .member(s.bob))?.acceptedBy == [s.bob, carol].sorted())

        await expectRejection(test.ledger, s.command(.setSharingAcceptance(templateID: id, person: s.bob, accepted: false)), code: "sharingAcceptanceInvalid", rule: "R1")
        await expectRejection(test.ledger, s.command(.setSharingAcceptance(templateID: id, person: carol, accepted: true), by: s.bob), code: "sharingAcceptanceInvalid", rule: "R1")
        await expectRejection(test.ledger, s.command(.setSharingAcceptance(templateID: id, person: carol, accepted: true)), code: "templateStateUnchanged", rule: "T4")
        let personal: TemplateID = s.ids.next()
        try await test.ledger.execute(s.command(.createTemplate(templateID: personal, frequency: .monthly, entry: Self.music(s))))
        await expectRejection(test.ledger, s.command(.setSharingAcceptance(templateID: personal, person: s.alice, accepted: true)), code: "sharingAcceptanceInvalid", rule: "R1")
        await expectRejection(test.ledger, s.command(.setSharingAcceptance(templateID: personal, person: s.bob, accepted: true), by: s.bob), code: "unknownTemplate", rule: "T4")

        try await test.ledger.execute(s.command(.undo(targetCommandID: carolAccepts.commandID)))
        #expect(await Self.subscription(test.ledger, id, on: Scenario.date("2026-01-10"), .audit)?.acceptedBy == [s.bob])
        try await test.ledger.checkpoint()
        try await test.ledger.close()
        let reopened = try await test.reopen()
        #expect(await Self.subscription(reopened, id, on: Scenario.date("2026-01-10"), .audit)?.acceptedBy == [s.bob], "kept in the checkpoint")
        try await reopened.close()
    }
}
