import Foundation
import Testing

/// `tally attachments` (T6, Swiff 2.2.1 receipts) and the demo household of issue 31's
/// done-when: an observed bank wallet, a subscription edited for every future occurrence, a
/// settle-up reminder and a receipt.
@Suite("tally attachments (T6)")
struct AttachmentsCLITests {
    static let lunch = "00000005-0000-4000-8000-000000000002"  // the demo's shared Migros shop

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try TallyRunner.jsonObject($0) }
    }

    @Test("T6 Swiff 2.2.1: add reads the file for its SHA-256 digest and size, list shows it as a member who sees the item sees it (G7), referenced lists the digests to keep, remove takes it off; a second add of the same file exits 1")
    func addListRemove() throws {
        let ledger = try TallyRunner.householdLedger()
        let file = TallyRunner.temporaryDirectory() + "/coop-receipt.PNG"
        try "abc".write(toFile: file, atomically: true, encoding: .utf8)
        let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  // SHA-256("abc")
        let added = try TallyRunner.run(["attachments", "add", file, "--transaction", Self.lunch, "--ledger", ledger, "--recorded-at", "2026-03-02T08:00:00Z"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try Self.lines(added.stdout).first?["contentHash"] as? String == digest)
        let again = try TallyRunner.run(["attachments", "add", file, "--transaction", Self.lunch, "--ledger", ledger])
        #expect(again.status == 1 && again.stderr.contains("attachmentExists"), "\(again.stderr)")

        let asBob = try Self.lines(try TallyRunner.run(["attachments", "list", "--transaction", Self.lunch, "--as", "Bob", ledger]).stdout)
        let mine = try #require(asBob.first { $0["contentHash"] as? String == digest })
        #expect(mine["name"] as? String == "coop-receipt.PNG" && mine["byteCount"] as? Int == 3 && mine["mediaType"] as? String == "image/png")
        #expect(mine["addedAt"] as? String == "2026-03-02T08:00:00.000Z")
        #expect(asBob.count == 2, "the demo's receipt and this one")
        let referenced = try TallyRunner.run(["attachments", "referenced", ledger]).stdout.split(separator: "\n").map(String.init)
        #expect(referenced.contains(digest) && referenced == referenced.sorted())

        let removed = try TallyRunner.run(["attachments", "remove", digest, "--transaction", Self.lunch, "--ledger", ledger])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!(try TallyRunner.run(["attachments", "referenced", ledger]).stdout.contains(digest)))
        let missing = try TallyRunner.run(["attachments", "remove", digest, "--transaction", Self.lunch, "--ledger", ledger])
        #expect(missing.status == 1 && missing.stderr.contains("unknownAttachment"), "\(missing.stderr)")
        let both = try TallyRunner.run(["attachments", "list", "--transaction", Self.lunch, "--group-expense", Self.lunch, ledger])
        #expect(both.status == 2 && both.stderr.contains("exactly one"), "\(both.stderr)")
        let badHash = try TallyRunner.run(["attachments", "remove", "xyz", "--transaction", Self.lunch, "--ledger", ledger])
        #expect(badHash.status == 2 && badHash.stderr.contains("64 hexadecimal digits"), "\(badHash.stderr)")
    }

    @Test("issue 31 done-when: the demo household shows an observed bank wallet (W5), a subscription edited for every future occurrence (R1), a settle-up reminder (R6, Swiff 4.1.3) and a receipt (T6)")
    func demoHouseholdShowsTheIssueFeatures() throws {
        let ledger = try TallyRunner.householdLedger()
        let balances = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["balances", "--json", ledger]).stdout))
        let wallets = try #require(balances["wallets"] as? [[String: Any]])
        #expect(wallets.contains { $0["kind"] as? String == "bank" && $0["valuation"] as? String == "observed" })
        let subscriptions = try TallyRunner.run(["subscriptions", ledger, "--on", "2026-03-01"]).stdout
        #expect(subscriptions.contains("Streaming Premium") && subscriptions.contains("CHF 24.90"))
        let alerts = try TallyRunner.run(["alerts", ledger, "--on", "2026-03-01"]).stdout
        #expect(alerts.contains("settle   Bob owes Alice") && alerts.contains("price    Streaming Premium"), "\(alerts)")
        let settles = alerts.split(separator: "\n").filter { $0.hasPrefix("settle") }
        #expect(Set(settles).count == settles.count, "one reminder per pair: \(settles)")
        let receipts = try Self.lines(try TallyRunner.run(["attachments", "list", "--transaction", Self.lunch, ledger]).stdout)
        #expect(receipts.map { $0["name"] as? String } == ["migros-receipt.jpg"])
    }
}
