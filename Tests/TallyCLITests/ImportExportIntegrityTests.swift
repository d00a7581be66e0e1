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
}
