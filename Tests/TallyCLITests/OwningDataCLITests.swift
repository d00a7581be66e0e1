import Foundation
import Testing

/// `tally export --format json` with sealed keys, `tally import backup --replace`, `tally reset`
/// and `tally import person` (issue 18 items 10 and 12; Docs/CLI.md).
@Suite("Owning one's data (CLI)")
struct OwningDataCLITests {
    static let bob = "00000002-0000-4000-8000-000000000002"

    @Test("P2, 9: export --format json needs a passphrase, a key file or --without-keys; the passphrase backup restores only with the passphrase")
    func backupNeedsAKeyChoice() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let refused = try TallyRunner.run(["export", ledger, "--format", "json", "--output", directory + "/b.json"])
        #expect(refused.status == 2 && refused.stderr.contains("never holds the personal keys in clear"), "\(refused.stderr)")
        try "correct horse battery staple\n".write(toFile: directory + "/pass", atomically: true, encoding: .utf8)
        let made = try TallyRunner.run(["export", ledger, "--format", "json", "--passphrase-file", directory + "/pass", "--output", directory + "/b.json"])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try String(contentsOfFile: directory + "/b.json", encoding: .utf8)
        #expect(text.contains(#""personalKeyProtection" : "passphrase""#) && !text.contains(#""personalKeys""#))
        let missing = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", directory + "/r"])
        #expect(missing.status == 2 && missing.stderr.contains("backupKeyRequired"), "\(missing.stderr)")
        let wrong = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", directory + "/r"], environment: ["TALLY_BACKUP_PASSPHRASE": "wrong"])
        #expect(wrong.status == 2 && wrong.stderr.contains("backupKeyWrong"), "\(wrong.stderr)")
        let restored = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", directory + "/r"], environment: ["TALLY_BACKUP_PASSPHRASE": "correct horse battery staple"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try TallyRunner.run(["diff", ledger, directory + "/r"]).status == 0)
    }

    @Test("US-703: import backup --replace replaces the ledger and keeps the old one beside it; without --replace a ledger is never overwritten")
    func restoreReplacesWithFlag() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        #expect(try TallyRunner.run(["export", ledger, "--format", "json", "--without-keys", "--output", directory + "/b.json"]).status == 0)
        let refused = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", ledger])
        #expect(refused.status == 2 && refused.stderr.contains("restoreTargetNotEmpty"), "\(refused.stderr)")
        let replaced = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", ledger, "--replace"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdout.contains("kept at \(ledger).replaced-1") && replaced.stdout.contains("taken from the replaced ledger"), "\(replaced.stdout)")
        #expect(try TallyRunner.run(["diff", ledger, ledger + ".replaced-1"]).status == 0)
        #expect(try TallyRunner.run(["audit", ledger]).status == 0)
    }

    @Test("Swiff 2.4.3: import backup --merge --dry-run previews per kind and writes nothing; the merge adds the copy's new entry; a second merge adds nothing")
    func mergeBackupPreviewsThenAdds() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        try "merge pass\n".write(toFile: directory + "/pass", atomically: true, encoding: .utf8)
        let passphrase = ["TALLY_BACKUP_PASSPHRASE": "merge pass"]
        let export = ["--format", "json", "--passphrase-file", directory + "/pass", "--output"]
        #expect(try TallyRunner.run(["export", ledger] + export + [directory + "/b.json"]).status == 0)
        // A copy with one more expense.
        let restored = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", directory + "/copy"], environment: passphrase)
        #expect(restored.status == 0, "\(restored.stderr)")
        let line = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000002f1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-20T08:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000002f1", "kind": "expense", "amount": {"minorUnits": 4200, "currency": "CHF"}, "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "00000004-0000-4000-8000-000000000001", "date": "2026-03-20"}"#
        let applied = try TallyRunner.run(["apply", "--ledger", directory + "/copy", "-"], stdin: line + "\n")
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try TallyRunner.run(["export", directory + "/copy"] + export + [directory + "/c.json"]).status == 0)
        let before = try TallyRunner.run(["balances", "--json", ledger]).stdout
        let preview = try TallyRunner.run(["import", "backup", directory + "/c.json", "--merge", "--dry-run", "--ledger", ledger], environment: passphrase)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.contains("transaction: 1 new, ") && preview.stdout.contains(" 0 differs (kept current), 0 refused"), "\(preview.stdout)")
        #expect(preview.stdout.contains("wallet: 0 new, 6 kept, 0 differs"), "\(preview.stdout)")
        #expect(try TallyRunner.run(["balances", "--json", ledger]).stdout == before, "--dry-run writes nothing")
        let merged = try TallyRunner.run(["import", "backup", directory + "/c.json", "--merge", "--ledger", ledger], environment: passphrase)
        #expect(merged.status == 0 && merged.stdout.contains("transaction: 1 new"), "\(merged.stdout) \(merged.stderr)")
        let copyBalances = try TallyRunner.run(["balances", "--json", directory + "/copy"]).stdout
        #expect(try TallyRunner.run(["balances", "--json", ledger]).stdout == copyBalances, "the ledger now holds the copy's entry")
        let again = try TallyRunner.run(["import", "backup", directory + "/c.json", "--merge", "--ledger", ledger], environment: passphrase)
        #expect(again.status == 0 && again.stdout.contains("transaction: 0 new, "), "\(again.stdout) \(again.stderr)")
        let replaceToo = try TallyRunner.run(["import", "backup", directory + "/c.json", "--merge", "--replace", "--ledger", ledger], environment: passphrase)
        #expect(replaceToo.status != 0 && replaceToo.stderr.contains("choose one"), "\(replaceToo.stderr)")
    }

    @Test("P3, 9: a --without-keys backup restored elsewhere needs --accept-unreadable-texts and says whose names are unreadable")
    func keylessBackupElsewhere() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        #expect(try TallyRunner.run(["export", ledger, "--format", "json", "--without-keys", "--output", directory + "/b.json"]).status == 0)
        let refused = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", directory + "/r"])
        #expect(refused.status == 2 && refused.stderr.contains("backupKeysOmitted") && refused.stderr.contains("--accept-unreadable-texts"), "\(refused.stderr)")
        let accepted = try TallyRunner.run(["import", "backup", directory + "/b.json", "--ledger", directory + "/r", "--accept-unreadable-texts"])
        #expect(accepted.status == 0 && accepted.stdout.contains("names and notes of 3 people are unreadable"), "\(accepted.stdout) \(accepted.stderr)")
        #expect(try TallyRunner.run(["audit", directory + "/r"]).status == 0)
    }

    @Test("US-704: reset needs --confirm DELETE; then it keeps the household, people and wallet balances, drops the transactions, and keeps the old ledger")
    func resetNeedsConfirmation() throws {
        let ledger = try TallyRunner.householdLedger()
        let before = try TallyRunner.run(["balances", "--json", ledger])
        let refused = try TallyRunner.run(["reset", ledger])
        #expect(refused.status == 2 && refused.stderr.contains("--confirm DELETE"), "\(refused.stderr)")
        let badKeep = try TallyRunner.run(["reset", ledger, "--keep", "wallets,pets", "--confirm", "DELETE"])
        #expect(badKeep.status == 2 && badKeep.stderr.contains("--keep pets"), "\(badKeep.stderr)")
        let reset = try TallyRunner.run(["reset", ledger, "--confirm", "DELETE", "--recorded-at", "2026-03-04T10:00:00Z"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("kept at \(ledger).replaced-1"), "\(reset.stdout)")
        let transactions = try TallyRunner.run(["transactions", "--json", ledger])
        #expect(transactions.status == 0 && !transactions.stdout.contains("transactionID"), "\(transactions.stdout)")
        let after = try TallyRunner.run(["balances", "--json", ledger])
        #expect(after.status == 0)
        for wallet in ["Joint account", "Bob cash"] { #expect(after.stdout.contains(wallet)) }
        #expect(try TallyRunner.run(["balances", "--json", ledger + ".replaced-1"]).stdout == before.stdout, "the old ledger is untouched")
    }

    @Test("I29.5: import person of an export whose carried transaction names an unknown wallet exits 2 with personalDataReferenceUnknown naming the transaction; no ledger is created")
    func importPersonRefusesAnUnknownWallet() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        #expect(try TallyRunner.run(["export", ledger, "--format", "person", "--person", Self.bob, "--output", directory + "/bob.json"]).status == 0)
        var exported = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/bob.json"))) as? [String: Any])
        let wallets = try #require(exported["wallets"] as? [[String: Any]])
        let owned = Set(wallets.filter { $0["owner"] as? String == Self.bob }.compactMap { $0["id"] as? String })
        var transactions = try #require(exported["transactions"] as? [[String: Any]])
        let carried = try #require(transactions.firstIndex { ($0["wallet"] as? String).map(owned.contains) == true && $0["deleted"] as? Bool == false })
        let transactionID = try #require(transactions[carried]["id"] as? String)
        transactions[carried]["wallet"] = "0000dead-0000-4000-8000-000000000001"
        exported["transactions"] = transactions
        try JSONSerialization.data(withJSONObject: exported).write(to: URL(fileURLWithPath: directory + "/altered.json"))
        let imported = try TallyRunner.run(["import", "person", directory + "/altered.json", "--ledger", directory + "/bob", "--recorded-at", "2026-03-04T10:00:00Z"])
        #expect(imported.status == 2, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stderr.contains("personalDataReferenceUnknown") && imported.stderr.contains(transactionID) && imported.stderr.contains("0000dead-0000-4000-8000-000000000001"), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/bob"), "nothing is created")
    }

    @Test("US-008: a person export imports into a new ledger (import person); Bob's own wallet has the exported balance")
    func importPersonIntoNewLedger() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        #expect(try TallyRunner.run(["export", ledger, "--format", "person", "--person", Self.bob, "--output", directory + "/bob.json"]).status == 0)
        let imported = try TallyRunner.run(["import", "person", directory + "/bob.json", "--ledger", directory + "/bob", "--recorded-at", "2026-03-04T10:00:00Z"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported") && imported.stdout.contains("wallets"), "\(imported.stdout)")
        let exported = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/bob.json"))) as? [String: Any])
        let wallets = try #require(exported["wallets"] as? [[String: Any]])
        let bobCash = try #require(wallets.first { $0["name"] as? String == "Bob cash" })
        let balance = try #require((bobCash["balance"] as? [String: Any])?["minorUnits"] as? Int)
        #expect(try TallyRunner.run(["export", directory + "/bob", "--format", "person", "--person", Self.bob, "--output", directory + "/again.json"]).status == 0)
        let again = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/again.json"))) as? [String: Any])
        let againCash = try #require((again["wallets"] as? [[String: Any]])?.first { $0["name"] as? String == "Bob cash" })
        #expect((againCash["balance"] as? [String: Any])?["minorUnits"] as? Int == balance)
        #expect((again["person"] as? [String: Any])?["role"] as? String == "admin")
        #expect(try TallyRunner.run(["audit", directory + "/bob"]).status == 0)
    }
}
