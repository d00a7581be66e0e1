import Foundation
import Testing

/// `tally import` refuses damaged input as a whole (issue items 7 and 16): a cut or edited
/// backup restores nothing, a CSV file with one ambiguous amount imports nothing.
@Suite("Import and export integrity")
struct ImportExportIntegrityTests {
    @Test("a backup cut after export restores nothing and names the declared end; the intact one restores")
    func cutBackupRestoresNothing() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let key = try TallyRunner.backupKeyFile(in: directory)
        #expect(try TallyRunner.run(["export", ledger, "--format", "json", "--backup-key-file", key, "--output", directory + "/b.json"]).status == 0)
        let data = try #require(FileManager.default.contents(atPath: directory + "/b.json"))
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let batches = try #require(document["batches"] as? [Any])
        document["batches"] = Array(batches.dropLast(2))
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: directory + "/cut.json"))
        let cut = try TallyRunner.run(["import", "backup", directory + "/cut.json", "--backup-key-file", key, "--ledger", directory + "/restored"])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("backupTruncated"), "\(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/restored"))
        #expect(try TallyRunner.run(["import", "backup", directory + "/b.json", "--backup-key-file", key, "--ledger", directory + "/restored"]).status == 0)
    }

    @Test("a CSV file with one ambiguous amount imports nothing, prints the failed row with its column, and exits 1")
    func csvWithAnAmbiguousAmountImportsNothing() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let csv = "\u{FEFF}date,amount,note,category\n2026-02-20,-12.50,Bakery,Groceries\n2026-02-21,\"1,2,3\",Books,Groceries\n"
        try csv.write(toFile: directory + "/i.csv", atomically: true, encoding: .utf8)
        let result = try TallyRunner.run(["import", "csv", directory + "/i.csv", "--ledger", ledger, "--wallet", "Bob cash"])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""line":3,"status":"failed""#) && result.stdout.contains(#""column":"amount""#), "\(result.stdout)")
        #expect(!result.stdout.contains("inserted"), "\(result.stdout)")
        #expect(result.stderr.contains("csvRowsFailed") && result.stderr.contains("nothing was imported"), "\(result.stderr)")
        try "date,amount,note,category\n2026-02-20,-12.50,Bakery,Groceries\n".write(toFile: directory + "/fixed.csv", atomically: true, encoding: .utf8)
        let fixed = try TallyRunner.run(["import", "csv", directory + "/fixed.csv", "--ledger", ledger, "--wallet", "Bob cash"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stdout.contains(#""status":"inserted""#), "the good row was not imported the first time: \(fixed.stdout)")
    }

    @Test("issue 31 item 2: --skip-invalid imports the valid rows of a CSV file, prints each invalid one with its line and column, and exits 1; the default still imports nothing")
    func skipInvalidImportsTheValidRows() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let csv = "date,amount,note,category\n2026-02-20,-12.50,Bakery,Groceries\n2026-02-21,\"1,2,3\",Books,Groceries\n2026-02-22,-7.00,Kiosk,No such category\n2026-02-23,-3.20,Tram,Groceries\n"
        try csv.write(toFile: directory + "/i.csv", atomically: true, encoding: .utf8)
        let result = try TallyRunner.run(["import", "csv", directory + "/i.csv", "--ledger", ledger, "--wallet", "Bob cash", "--skip-invalid"])
        #expect(result.status == 1, "two rows failed")
        #expect(result.stdout.contains(#""line":3,"status":"failed""#) && result.stdout.contains(#""column":"amount""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""line":4,"status":"failed""#) && result.stdout.contains(#""column":"category""#), "\(result.stdout)")
        #expect(result.stderr.contains("2 inserted, 0 replaced, 0 skipped, 2 failed"), "\(result.stderr)")
        let listed = try TallyRunner.run(["transactions", "--ledger", ledger, "--wallet", "Bob cash", "--json", "--limit", "1000"])
        #expect(listed.stdout.contains("Bakery") && listed.stdout.contains("Tram") && !listed.stdout.contains("Kiosk"), "\(listed.stdout)")
        let again = try TallyRunner.run(["import", "csv", directory + "/i.csv", "--ledger", ledger, "--wallet", "Bob cash", "--skip-invalid"])
        #expect(again.stderr.contains("0 inserted, 0 replaced, 2 skipped, 2 failed"), "the imported rows are duplicates now: \(again.stderr)")
    }

    @Test("W5 (Drishti E6-S4, Tim): import balances turns each row into a balance point of the wallet; a point of the same wallet and date is a duplicate (in the file the later row wins; in the ledger skipped, or replaced with --duplicates replace); the observed wallet's balance is the latest point")
    func balanceHistoryImport() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let csv = "date,amount\n2026-03-15,24500.00\n2026-03-31,25000.00\n2026-03-31,25300.50\n2026-04-30,not a number\n"
        try csv.write(toFile: directory + "/b.csv", atomically: true, encoding: .utf8)
        let refused = try TallyRunner.run(["import", "balances", directory + "/b.csv", "--ledger", ledger, "--wallet", "ETF portfolio"])
        #expect(refused.status == 1 && refused.stderr.contains("nothing was imported"), "all or nothing by default: \(refused.stderr)")
        let result = try TallyRunner.run(["import", "balances", directory + "/b.csv", "--ledger", ledger, "--wallet", "ETF portfolio", "--skip-invalid"])
        #expect(result.status == 1)
        // Two balances of one day: the later row wins (the day's end in an export with a running balance).
        #expect(result.stdout.contains(#""line":3,"status":"skipped""#) && result.stdout.contains("superseded by line 4"), "\(result.stdout)")
        #expect(result.stdout.contains(#""line":4,"status":"inserted""#) && result.stdout.contains(#""line":5,"status":"failed""#), "\(result.stdout)")
        let balances = try TallyRunner.run(["balances", "--ledger", ledger])
        #expect(balances.stdout.contains("CHF 25'300.50"), "the ETF portfolio (observed) is its latest point: \(balances.stdout)")
        try "date,amount\n2026-03-31,26000.00\n".write(toFile: directory + "/c.csv", atomically: true, encoding: .utf8)
        let skipped = try TallyRunner.run(["import", "balances", directory + "/c.csv", "--ledger", ledger, "--wallet", "ETF portfolio"])
        #expect(skipped.status == 0 && skipped.stdout.contains(#""status":"skipped""#), "\(skipped.stdout)")
        let replaced = try TallyRunner.run(["import", "balances", directory + "/c.csv", "--ledger", ledger, "--wallet", "ETF portfolio", "--duplicates", "replace"])
        #expect(replaced.status == 0 && replaced.stdout.contains(#""status":"replaced""#), "\(replaced.stdout)")
        #expect(try TallyRunner.run(["balances", "--ledger", ledger]).stdout.contains("CHF 26'000.00"))
        // A row the engine refuses (beyond the ledger's amount limit) fails alone, planned against the engine's rules.
        try "date,amount\n2026-04-15,20000000000000.00\n2026-04-30,26100.00\n".write(toFile: directory + "/d.csv", atomically: true, encoding: .utf8)
        let limit = try TallyRunner.run(["import", "balances", directory + "/d.csv", "--ledger", ledger, "--wallet", "ETF portfolio", "--skip-invalid"])
        #expect(limit.status == 1 && limit.stdout.contains(#""line":2,"status":"failed""#) && limit.stdout.contains("exceeds"), "\(limit.stdout)")
        #expect(try TallyRunner.run(["balances", "--ledger", ledger]).stdout.contains("CHF 26'100.00"), "the valid row went in")
    }
}
