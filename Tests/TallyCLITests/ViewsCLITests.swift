import Foundation
import Testing

/// Flow US-058, Swiff 2.3.3: `tally views` lists the saved views a person sees (G7) and runs one.
@Suite("CLI: saved views")
struct ViewsCLITests {
    @Test("US-058, G7: saveView through apply; views --as lists the owner's private filter and the shared template for the owner, only the shared one for another member; running the filter lists transactions, the template prints its report; another member cannot run the private one (exit 2)")
    func savedViewsThroughTheCLI() throws {
        let ledger = try TallyRunner.householdLedger()
        let actor = #""actor": "00000002-0000-4000-8000-000000000001""#
        let lines = [
            #"{"command": "saveView", "commandID": "0000000c-0000-4000-8000-00000000f651", \#(actor), "recordedAt": "2026-03-02T09:00:00.000Z", "viewID": "00000065-0000-4000-8000-000000000001", "name": "Big spending", "filter": {"kinds": ["expense"], "minMinorUnits": 10000}}"#,
            #"{"command": "saveView", "commandID": "0000000c-0000-4000-8000-00000000f652", \#(actor), "recordedAt": "2026-03-02T09:01:00.000Z", "viewID": "00000065-0000-4000-8000-000000000002", "name": "Spending by month", "shared": true, "filter": {"kinds": ["expense"]}, "report": {"range": "custom", "span": "month", "from": "2026-01-01", "through": "2026-02-28"}}"#,
        ]
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(applied.status == 0 && !applied.stdout.contains("rejected"), "\(applied.stderr) \(applied.stdout)")

        let alice = try TallyRunner.run(["views", "--as", "00000002-0000-4000-8000-000000000001", ledger])
        #expect(alice.status == 0 && alice.stdout.contains("Big spending") && alice.stdout.contains("Spending by month"), "\(alice.stdout) \(alice.stderr)")
        let bob = try TallyRunner.run(["views", "--as", "00000002-0000-4000-8000-000000000002", ledger])
        #expect(bob.status == 0 && !bob.stdout.contains("Big spending") && bob.stdout.contains("Spending by month"), "\(bob.stdout) \(bob.stderr)")
        let filter = try TallyRunner.run(["views", "--view", "Big spending", "--as", "00000002-0000-4000-8000-000000000001", ledger])
        #expect(filter.status == 0 && (filter.stdout.contains("end of list") || filter.stdout.contains("more: --after")), "\(filter.stdout) \(filter.stderr)")
        let report = try TallyRunner.run(["views", "--view", "Spending by month", "--json", "--as", "00000002-0000-4000-8000-000000000002", ledger])
        #expect(report.status == 0 && report.stdout.contains("\"periods\"") && report.stdout.contains("2026-02-01"), "\(report.stdout) \(report.stderr)")
        let list = try TallyRunner.run(["views", "--json", ledger])
        #expect(list.status == 0 && list.stdout.contains("\"minMinorUnits\":10000"), "\(list.stdout) \(list.stderr)")
        let hidden = try TallyRunner.run(["views", "--view", "Big spending", "--as", "00000002-0000-4000-8000-000000000002", ledger])
        #expect(hidden.status == 2, "\(hidden.stdout) \(hidden.stderr)")
    }
}
