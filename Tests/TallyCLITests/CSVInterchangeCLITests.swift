import Foundation
import Testing

/// `tally export --format csv` filters and `tally import csv` with accounts, external ids,
/// duplicates and saved mappings (section 9, G7; Docs/CLI.md, Docs/Interchange.md).
@Suite("CSV interchange CLI")
struct CSVInterchangeCLITests {
    @Test("section 9, G7: export csv --from --to --wallet --category --person select rows; an unknown filter value exits 2 naming it")
    func exportFilters() throws {
        let ledger = try TallyRunner.householdLedger()
        let all = try TallyRunner.run(["export", ledger, "--format", "csv"])
        #expect(all.status == 0, "\(all.stderr)")
        let header = try #require(all.stdout.split(separator: "\n").first)
        #expect(header == "date,type,category,amount,note,wallet,currency,shared,payer,share:Alice,share:Bob")
        let filtered = try TallyRunner.run([
            "export", ledger, "--format", "csv", "--from", "2026-02-01", "--to", "2026-02-28", "--wallet", "Joint account",
            "--wallet", "Bob cash", "--person", "Bob",
        ])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        let rows = filtered.stdout.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.hasPrefix("2026-02-") && ($0.contains(",Joint account,") || $0.contains(",Bob cash,")) })
        #expect(!rows.contains { $0.contains(",no,Alice,") }, "G7: no personal row of Alice's")
        let unknown = try TallyRunner.run(["export", ledger, "--format", "csv", "--category", "Yachts"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknownCategory") && unknown.stderr.contains("Yachts"), "\(unknown.stderr)")
        let misplaced = try TallyRunner.run(["export", ledger, "--format", "ledger", "--from", "2026-01-01"])
        #expect(misplaced.status == 2, "\(misplaced.stderr)")
    }
}
