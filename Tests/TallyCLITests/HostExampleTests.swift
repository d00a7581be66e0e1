import Foundation
import Testing

/// `Examples/HostApp` (`TallyHostExample`), built with the tests and run as a process: what it
/// prints from the engine's observation and queries, checked against Sources/TallyCLI/Demo/household.jsonl.
@Suite("host example", .serialized)
struct HostExampleTests {
    @Test("on Sources/TallyCLI/Demo/household.jsonl: the observed balances before and after its one command, with values recomputed from the file; signed in as Alice (the admin) or Bob, each sees the household's wallets and their own (G7)")
    func householdBalancesAndTheirUpdate() throws {
        let output = try HostOutput.run([TallyRunner.household])
        #expect(output.lines.first == "Ledger: 76 commands of household.jsonl, executed into a new ledger, 94 events")
        #expect(output.lines.dropFirst().first == "Signed in as Alice (admin): every screen shows what they see (G7)")
        let before = output.section("Balances (observed)")
        #expect(!before.contains { $0.hasPrefix("Bob cash") }, "G7: Bob's own wallet is not Alice's to see")
        let bob = try HostOutput.run([TallyRunner.household, "--as", "Bob"])
        // Bob cash: 200.00 opening - 84.30 (line 21) - 45.00 (line 22) - 62.30 (line 47).
        #expect(bob.section("Balances (observed)").contains("Bob cash cash Bob CHF 8.40 3 transactions"))
        #expect(!bob.section("Balances (observed)").contains { $0.hasPrefix("Alice") }, "G7: Alice's two wallets are hers")
        // Alice savings: 12'000.00 opening + 500.00 (line 26) + 500.00 (line 58), transfers only.
        #expect(before.contains("Alice savings savings Alice CHF 13'000.00 0 transactions"))
        // Joint account: 3'500.00 opening - 2'400.00 (19) - 139.55 (20 as edited by 25) - 96.00 (23)
        // - 500.00 (26) - 100.00 (27) - 19.90 (33) + 5'400.00 (39) + 3'600.00 (40) - 2'400.00 (43)
        // - 118.70 (44) - 148.00 (49) - 89.40 (51) - 19.90 (52) + 5'400.00 (54) + 3'600.00 (55)
        // - 500.00 (58); line 34 is deleted (37), line 45 undone (46).
        #expect(before.contains("Joint account bank shared CHF 14'968.55 13 transactions"))
        try #require(before.count == 4)
        // The newest expense (line 52, the template's occurrence of 2026-02-20), recorded again.
        #expect(output.lines.contains("Executed: expense CHF 19.90 in Joint account, Subscriptions, 2026-02-20, paid by Alice"))
        let after = output.section("Balances (observed after the command)")
        #expect(after.contains("Joint account bank shared CHF 14'948.65 14 transactions"), "14'968.55 - 19.90")
        try #require(after.count == 4)
        #expect(Set(before).symmetricDifference(after) == [before[3], after[3]], "only the Joint account's line changed")
    }

    @Test("on Sources/TallyCLI/Demo/household.jsonl: the page after the cursor repeats no row, and the two pages are the first ten rows; day totals and the report hold the file's sums")
    func householdPagesDayTotalsAndReport() throws {
        let output = try HostOutput.run([TallyRunner.household])
        let first = output.section("Transactions, newest first (page 1, 5 rows)")
        let second = output.section("Transactions, page 2 (after date-desc.20260214.65)")
        #expect(first.count == 6 && second.count == 6, "five rows and the next cursor each")
        #expect(first.last == "next: date-desc.20260214.65")
        // G7: Bob's salaries (lines 40, 55) are his personal income, not on Alice's list.
        #expect(first.first == "2026-02-25 income +CHF 5'400.00 Joint account Salary Alice")
        #expect(!output.text.contains("3'600.00"))
        #expect(Set(first.dropLast()).isDisjoint(with: second.dropLast()), "no row of page 1 again on page 2")
        let tenRows = try HostOutput.run([TallyRunner.household, "--page-size", "10"]).section("Transactions, newest first (page 1, 10 rows)")
        #expect(Array(first.dropLast() + second.dropLast()) == Array(tenRows.dropLast()), "pages 1 and 2 of 5 are page 1 of 10")

        let days = output.section("Day totals, 2026-02")
        #expect(days.first == "2026-02-25 income CHF 5'400.00 1", "line 54; Bob's 3'600.00 (line 55) is his (G7)")
        #expect(days.contains("2026-02-20 expense CHF 39.80 2"), "the template's 19.90 and the example's repeat")
        #expect(days.contains("2026-02-05 expense CHF 2'518.70 2"), "2'400.00 + 118.70 (lines 43, 44)")
        let report = output.section("Expenses by category and month (2025-12...2026-02)")
        #expect(report.first == "category 2026-01 2026-02")
        #expect(report.contains("Rent CHF 2'400.00 CHF 2'400.00"))
        #expect(report.contains("Groceries CHF 223.85 CHF 270.40"), "139.55 (line 20 as edited) + 84.30; 118.70 + 62.30 + 89.40")
        #expect(report.contains("Restaurants EUR 64.50"))
        #expect(try HostOutput.run([TallyRunner.household]).lines == output.lines, "the output is the same on every run")
    }

    @Test("on a ledger directory where Bob was forgotten: his name comes back redacted everywhere, and a second run works on the same ledger")
    func forgottenPersonIsRedactedInALedgerDirectory() throws {
        let ledger = try TallyRunner.householdLedger()
        let forget = """
            {"command": "removeMember", "commandID": "0000000c-0000-4000-8000-0000000000ff", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T09:00:00.000Z", "personID": "00000002-0000-4000-8000-000000000002", "acknowledgeUnsettled": true}
            {"command": "forgetPerson", "commandID": "0000000c-0000-4000-8000-0000000000fe", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-02T09:00:00.000Z", "personID": "00000002-0000-4000-8000-000000000002"}

            """
        #expect(try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: forget).status == 0)
        let output = try HostOutput.run([ledger])
        #expect(output.lines.first == "Ledger: the ledger in ledger, 96 events")
        // Alice's list: the expense Bob shared with her (line 47), paid by a forgotten person.
        #expect(output.section("Transactions, page 2 (after date-desc.20260214.65)").contains("2026-02-12 expense -CHF 62.30 Bob cash Groceries [redacted]"))
        #expect(!output.text.replacingOccurrences(of: "Bob cash", with: "").contains("Bob"), "no name of Bob outside the wallet's own name")

        let again = try HostOutput.run([ledger])
        #expect(again.lines.first == "Ledger: the ledger in ledger, 97 events")
        #expect(again.section("Balances (observed after the command)").contains("Joint account bank shared CHF 14'928.75 15 transactions"))
    }

    @Test("a missing ledger is a usage error (exit 2); a commands file with a bad line names the line (exit 1)")
    func badInputIsReported() throws {
        let missing = try TallyRunner.run(["/nonexistent/ledger"], executable: "TallyHostExample")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/ledger does not exist") && missing.stderr.contains("usage:"), "\(missing.stderr)")
        let file = TallyRunner.temporaryDirectory() + "/bad.jsonl"
        try "// a comment\n{\"command\": \"nope\"}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try TallyRunner.run([file], executable: "TallyHostExample")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("bad.jsonl: line 2: unknownCommand"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
    }
}

/// The host example's standard output, in sections (a title line, then indented lines).
struct HostOutput {
    let text: String
    let lines: [String]

    /// Runs the example with `arguments`, expecting exit status 0.
    static func run(_ arguments: [String]) throws -> HostOutput {
        let result = try TallyRunner.run(arguments, executable: "TallyHostExample")
        #expect(result.status == 0, "\(result.stderr)")
        return HostOutput(text: result.stdout, lines: result.stdout.split(separator: "\n").map(String.init))
    }

    /// The indented lines after the line `title`, whitespace runs as one space.
    func section(_ title: String) -> [String] {
        guard let start = lines.firstIndex(of: title) else {
            Issue.record("no section \"\(title)\" in:\n\(text)")
            return []
        }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { line in
            line.split(separator: " ").joined(separator: " ")
        }
    }
}
