import Foundation
import Testing

/// R1: `tally subscriptions` (list, --upcoming, --calendar, --history) and
/// `tally subscriptions post` on Sources/TallyCLI/Demo/household.jsonl, whose "Streaming"
/// template (CHF 19.90 monthly from 2026-01-20) was activated by hand on Jan 20 and Feb 20.
@Suite("CLI: subscriptions")
struct SubscriptionsCLITests {
    static let streaming = "00000007-0000-4000-8000-000000000001"

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try TallyRunner.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    static func minorUnits(_ value: Any?) -> Int? { (value as? [String: Any])?["minorUnits"] as? Int }

    @Test("R1: the list shows the next date and the monthly equivalent; post records the due occurrences once; history and calendar show them")
    func listPostHistoryCalendar() throws {
        let ledger = try TallyRunner.householdLedger()
        let list = try Self.json(["subscriptions", "--ledger", ledger, "--on", "2026-03-01", "--json"])
        let items = try #require(list["subscriptions"] as? [[String: Any]])
        let streaming = try #require(items.first { $0["templateID"] as? String == Self.streaming })
        #expect((streaming["next"] as? [String: Any])?["date"] as? String == "2026-03-20")
        #expect(Self.minorUnits(streaming["monthlyEquivalent"]) == 2490, "the demo's price rise from 2026-03-01 (CHF 19.90 to 24.90)")
        #expect(streaming["name"] as? String == "Streaming Premium", "the demo's edit for every occurrence from 2026-03-01")
        #expect(streaming["standing"] as? String == "active")
        let text = try TallyRunner.run(["subscriptions", "--ledger", ledger, "--on", "2026-03-01"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Streaming") && text.stdout.contains("2026-03-20") && text.stdout.contains("monthly"))

        let post = ["subscriptions", "post", "--ledger", ledger, "--through", "2026-04-30", "--recorded-at", "2026-05-01T08:00:00Z"]
        let first = try TallyRunner.run(post)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try TallyRunner.jsonObject(Substring(first.stdout.split(separator: "\n").first ?? ""))["posted"] as? Int == 2)
        let second = try TallyRunner.run(post)
        #expect(try TallyRunner.jsonObject(Substring(second.stdout.split(separator: "\n").first ?? ""))["posted"] as? Int == 0)

        let history = try Self.json(["subscriptions", "--ledger", ledger, "--history", Self.streaming, "--json"])
        let billed = try #require(history["occurrences"] as? [[String: Any]])
        #expect(billed.map { $0["date"] as? String } == ["2026-01-20", "2026-02-20", "2026-03-20", "2026-04-20"])
        let calendar = try Self.json(["subscriptions", "--ledger", ledger, "--calendar", "2026-05", "--json"])
        let may = try #require(calendar["occurrences"] as? [[String: Any]])
        #expect(may.contains { $0["date"] as? String == "2026-05-20" && $0["transactionID"] is NSNull })
        let upcoming = try TallyRunner.run(["subscriptions", "--ledger", ledger, "--on", "2026-04-15", "--upcoming", "10"])
        #expect(upcoming.stdout.contains("2026-04-20") && upcoming.stdout.contains("yes"))
    }

    @Test("R1: the postDueOccurrences command line of `tally apply` posts like `tally subscriptions post`")
    func applyPostsDueOccurrences() throws {
        let ledger = try TallyRunner.householdLedger()
        let line = #"{"command": "postDueOccurrences", "commandID": "0000000c-0000-4000-8000-00000000f001", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-04-01T08:00:00.000Z", "through": "2026-03-31"}"#
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: line + "\n")
        #expect(applied.status == 0, "\(applied.stderr) \(applied.stdout)")
        let history = try Self.json(["subscriptions", "--ledger", ledger, "--history", Self.streaming, "--json"])
        #expect((history["occurrences"] as? [[String: Any]])?.count == 3)
    }
}
