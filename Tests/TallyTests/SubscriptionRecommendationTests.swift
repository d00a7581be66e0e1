import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Subscription recommendations (Swiff 4.2.3, R1, G7): `ledger.subscriptionRecommendations(on:visibleTo:)`.
@Suite("Subscription recommendations")
struct SubscriptionRecommendationTests {
    static func entry(_ s: Scenario, _ minorUnits: Int64, _ note: String, payer: PersonID? = nil) -> TransactionEntry {
        var entry = SubscriptionTests.entry(s, minorUnits, anchor: "2026-01-05")
        entry.note = note
        entry.payer = payer ?? s.alice
        return entry
    }

    @Test("4.2.3: the same name (case and spacing ignored) or the same category, cycle and price is a duplicate group, listed once; an item billed monthly saves 2/12 of its annual amount on an annual plan, a yearly one nothing; cancelled items count for nothing")
    func duplicatesAndAnnualPlans() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("subscription-recommendations")
        try await test.ledger.execute(s.setup())
        let netflix: TemplateID = s.ids.next(), netflixAgain: TemplateID = s.ids.next(), music: TemplateID = s.ids.next()
        let radio: TemplateID = s.ids.next(), insurance: TemplateID = s.ids.next(), gym: TemplateID = s.ids.next()
        try await test.ledger.execute([
            s.command(.createTemplate(templateID: netflix, frequency: .monthly, entry: Self.entry(s, 1_500, "Netflix"))),
            s.command(.createTemplate(templateID: netflixAgain, frequency: .monthly, entry: Self.entry(s, 1_700, " netflix "))),
            s.command(.createTemplate(templateID: music, frequency: .monthly, entry: Self.entry(s, 1_290, "Music"))),
            s.command(.createTemplate(templateID: radio, frequency: .monthly, entry: Self.entry(s, 1_290, "Radio"))),
            s.command(.createTemplate(templateID: insurance, frequency: .yearly, entry: Self.entry(s, 60_000, "Insurance"))),
            s.command(.createTemplate(templateID: gym, frequency: .monthly, entry: Self.entry(s, 1_290, "Gym"))),
            s.command(.cancelTemplate(templateID: gym, effectiveOn: Scenario.date("2026-01-20"))),
        ])
        let items = await test.ledger.subscriptionRecommendations(on: Scenario.date("2026-02-01"), visibleTo: .audit)
        let groups = items.compactMap { if case .duplicates(let ids) = $0.kind { Set(ids) } else { nil } }
        #expect(Set(groups) == [Set([netflix, netflixAgain]), Set([music, radio])], "\(items)")
        let plans = items.compactMap { if case .annualPlan(let id, let annual, let saving) = $0.kind { (id, annual.minorUnits, saving.minorUnits) } else { nil } }
        #expect(plans.map(\.0) == [netflixAgain, netflix] + [music, radio].sorted(), "largest saving first, then by id")
        #expect(plans.first.map { $0.1 == 20_400 && $0.2 == 3_400 } == true, "CHF 17 a month: CHF 204 a year, CHF 34 saved")
        #expect(items.allSatisfy { !$0.id.contains(insurance.description) && !$0.id.contains(gym.description) })
        #expect(Set(items.map(\.id)).count == items.count)
    }

    @Test("4.2.3, G7: a member's recommendations cover only the items they see: Bob's own duplicates are not Alice's")
    func recommendationsAreForTheViewer() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("subscription-recommendations-viewer")
        try await test.ledger.execute(s.setup())
        try await test.ledger.execute([
            s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.entry(s, 999, "Cloud", payer: s.bob)), by: s.bob),
            s.command(.createTemplate(templateID: s.ids.next(), frequency: .monthly, entry: Self.entry(s, 999, "cloud", payer: s.bob)), by: s.bob),
        ])
        #expect(await test.ledger.subscriptionRecommendations(on: Scenario.date("2026-02-01"), visibleTo: .member(s.alice)).isEmpty)
        #expect(await test.ledger.subscriptionRecommendations(on: Scenario.date("2026-02-01"), visibleTo: .member(s.bob)).count == 3)
    }
}
