import Foundation
@testable import Tally
import TallyModel
import TallyTestSupport
import Testing

/// Issue 31 item 3 (Swiff's global search): people, groups, recurring items, categories and
/// wallets by name, for a viewer (G7).
@Suite("Global search over the household's names", .serialized)
struct GlobalSearchTests {
    @Test("G7, issue 31: search finds people, groups, subscriptions, categories and wallets whose names hold every word (prefixes, case and accents ignored), ordered by kind; a member never finds another member's own wallet, personal subscription or a group they are not in; bad input is a typed error")
    func searchByName() async throws {
        var s = Scenario()
        let test = try await TestLedger.make("global-search", durability: .synchronous)
        defer { test.directory.remove() }
        try await test.ledger.execute(s.setup())
        let (zoe, bobsWallet, trip, streaming, gym): (PersonID, WalletID, GroupID, TemplateID, TemplateID) = (s.ids.next(), s.ids.next(), s.ids.next(), s.ids.next(), s.ids.next())
        var personal = s.expense(1_590)
        personal.payer = s.bob
        personal.note = "Zürich Streaming"
        var shared = s.expense(6_000, shared: true)
        shared.note = "Gym Zurich"
        try await test.ledger.execute([
            s.command(.addPerson(personID: zoe, name: "Zoë Zürcher")),
            s.command(.openWallet(walletID: bobsWallet, name: "Bob Zurich account", kind: .bank, openingBalance: Scenario.chf(0),
                                  openedOn: Scenario.date("2026-01-01"), owner: s.bob)),
            s.command(.createGroup(groupID: trip, name: "Zurich trip", members: [s.bob, zoe])),
            s.command(.createTemplate(templateID: streaming, frequency: .monthly, entry: personal)),
            s.command(.createTemplate(templateID: gym, frequency: .monthly, entry: shared)),
        ])
        let everything = try await test.ledger.search("zur", visibleTo: .audit)
        #expect(everything.map(\.kind) == [.person, .group, .subscription, .subscription, .wallet], "\(everything)")
        #expect(Set(everything.map(\.id)) == [zoe.value, trip.value, streaming.value, gym.value, bobsWallet.value])
        #expect(try await test.ledger.search("ZÜR ZOE", visibleTo: .audit).map(\.id) == [zoe.value], "every word, accents and case ignored")

        let alice = try await test.ledger.search("zur", visibleTo: .member(s.alice))
        #expect(Set(alice.map(\.id)) == [zoe.value, gym.value], "not Bob's wallet, his personal item or his group: \(alice)")
        let bob = try await test.ledger.search("zur", visibleTo: .member(s.bob))
        #expect(Set(bob.map(\.id)) == Set(everything.map(\.id)))
        #expect(try await test.ledger.search("groc", visibleTo: .member(s.alice)).contains { $0.kind == .category && $0.name == "Groceries" })
        #expect(try await test.ledger.search("zur", visibleTo: .audit, limit: 2).count == 2)

        await #expect(throws: LedgerError.self) { try await test.ledger.search("--", visibleTo: .audit) }
        await #expect(throws: LedgerError.self) { try await test.ledger.search("zur", visibleTo: .audit, limit: 0) }
        try await test.ledger.close()
    }
}
