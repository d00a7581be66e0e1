import Foundation
import TallyJournal
import Testing

/// Issue 29 item 3 through the CLI: the folders as a crash between the two renames of `tally
/// import backup --replace` leaves them (no ledger at the path, the old one as
/// `L.replaced-1`, the complete restored one as `.L.restoring`), with and without the swap's
/// intent record `.L.swap` (Docs/Interchange.md, "Restore over an existing ledger").
@Suite("Swap recovery (CLI)")
struct SwapRecoveryCLITests {
    struct Crashed {
        let ledger: String
        let aside: String
        let restoring: String
        let record: String
        /// `tally balances --json` of the restored ledger and of the old one.
        let restoredBalances: String
        let oldBalances: String
    }

    /// A ledger with one wallet opened after its backup, the backup restored beside it as
    /// `.ledger.restoring` and the ledger moved to `ledger.replaced-1`: the folders between
    /// the swap's two renames.
    static func crashedBetweenTheRenames() throws -> Crashed {
        let ledger = try TallyRunner.householdLedger()
        let parent = (ledger as NSString).deletingLastPathComponent
        let key = try TallyRunner.backupKeyFile(in: parent)
        let backup = parent + "/b.json"
        #expect(try TallyRunner.run(["export", ledger, "--format", "json", "--backup-key-file", key, "--output", backup]).status == 0)
        let later = parent + "/later.jsonl"
        try #"{"command": "openWallet", "commandID": "0000000c-0000-4000-8000-0000000009f1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T10:00:00.000Z", "walletID": "00000003-0000-4000-8000-0000000009f1", "name": "Opened after the backup", "kind": "cash", "openingBalance": "CHF 5.00", "openedOn": "2026-03-01"}"#
            .appending("\n").write(toFile: later, atomically: true, encoding: .utf8)
        #expect(try TallyRunner.run(["apply", "--ledger", ledger, later]).status == 0)
        let oldBalances = try TallyRunner.run(["balances", "--json", ledger]).stdout
        // Set aside first: a .ledger.restoring beside a ledger is a leftover its next open removes.
        let aside = ledger + ".replaced-1"
        try FileManager.default.moveItem(atPath: ledger, toPath: aside)
        let restoring = parent + "/.ledger.restoring"
        let restored = try TallyRunner.run(["import", "backup", backup, "--ledger", restoring, "--backup-key-file", key])
        #expect(restored.status == 0, "\(restored.stderr)")
        let crashed = Crashed(
            ledger: ledger, aside: aside, restoring: restoring, record: parent + "/.ledger.swap",
            restoredBalances: try TallyRunner.run(["balances", "--json", restoring]).stdout, oldBalances: oldBalances)
        #expect(crashed.oldBalances.contains("Opened after the backup") && !crashed.restoredBalances.contains("Opened after the backup"))
        return crashed
    }

    @Test("I29.3: with no ledger at the path and no swap record (a crash before this version), balances, apply and reset exit 2 naming L.replaced-1 and .L.restoring and what to run; nothing is created, nothing moved")
    func withoutRecordEveryCommandRefusesNamingBothFolders() throws {
        let crashed = try Self.crashedBetweenTheRenames()
        let commands: [[String]] = [
            ["balances", crashed.ledger],
            ["apply", "--ledger", crashed.ledger, TallyRunner.household],
            ["reset", crashed.ledger, "--confirm", "DELETE"],
            ["init", "--ledger", crashed.ledger, "--name", "New", "--admin-name", "Ann"],
        ]
        for arguments in commands {
            let result = try TallyRunner.run(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("swapInterrupted") && result.stderr.contains(crashed.aside) && result.stderr.contains(crashed.restoring),
                    "\(arguments[0]) names both folders: \(result.stderr)")
            #expect(result.stderr.contains("rename \(crashed.aside) to \(crashed.ledger)"), "\(arguments[0]) says what to run: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: crashed.ledger), "\(arguments[0]) created nothing at the path")
            #expect(FileManager.default.fileExists(atPath: crashed.restoring + "/journal"), "\(arguments[0]) left .L.restoring")
        }
        // Doing what the message says brings the old ledger back; its next open removes the leftover.
        try FileManager.default.moveItem(atPath: crashed.aside, toPath: crashed.ledger)
        let back = try TallyRunner.run(["balances", "--json", crashed.ledger])
        #expect(back.status == 0 && back.stdout == crashed.oldBalances, "\(back.stderr)")
        #expect(back.stderr.contains("removed \(crashed.restoring)"), "\(back.stderr)")
        #expect(!FileManager.default.fileExists(atPath: crashed.restoring))
    }

    @Test("I29.3: with the swap's record (what a crash between the renames leaves now), balances finishes the restore, saying so and where the old ledger is kept, and shows the restored ledger; reset then runs (retry works)")
    func withRecordTheNextCommandFinishesTheSwap() throws {
        let crashed = try Self.crashedBetweenTheRenames()
        let body = "tally.swap 1\noperation restore\naside 1\n"
        let checksum = String(CRC32C.checksum(Array(body.utf8)), radix: 16)
        try (body + "crc32c " + String(repeating: "0", count: 8 - checksum.count) + checksum + "\n")
            .write(toFile: crashed.record, atomically: true, encoding: .utf8)
        let balances = try TallyRunner.run(["balances", "--json", crashed.ledger])
        #expect(balances.status == 0, "\(balances.stderr)")
        #expect(balances.stdout == crashed.restoredBalances, "the restored ledger is in place")
        #expect(balances.stderr.contains("finished an interrupted restore") && balances.stderr.contains("kept at \(crashed.aside)"), "\(balances.stderr)")
        #expect(!FileManager.default.fileExists(atPath: crashed.restoring) && !FileManager.default.fileExists(atPath: crashed.record))
        #expect(try TallyRunner.run(["balances", "--json", crashed.aside]).stdout == crashed.oldBalances, "the old ledger is kept whole")
        let reset = try TallyRunner.run(["reset", crashed.ledger, "--confirm", "DELETE", "--recorded-at", "2026-03-04T10:00:00Z"])
        #expect(reset.status == 0 && reset.stdout.contains("kept at \(crashed.ledger).replaced-2"), "\(reset.stdout) \(reset.stderr)")
    }
}
