import Foundation
import Testing

/// Issue 13 B6, A2, A3 through the `tally` binary: every reading subcommand refuses a damaged
/// ledger naming segment and sequence, `--allow-damaged` reads the prefix and says what it
/// dropped, the writer refuses, and `tally repair` is the explicit way back.
@Suite("tally on damaged ledgers", .serialized)
struct DamagedLedgerCLITests {
    static let readers: [[String]] = [
        ["balances"], ["log"], ["stats"], ["debts"], ["budget", "--period", "2026-01-10"], ["networth"],
        ["export", "--format", "csv"], ["export", "--format", "ledger"],
    ]

    /// The only segment of `ledger`, with one bit of its last frame flipped.
    static func flipLastFrame(_ ledger: String) throws -> (path: String, bytes: Data) {
        let journal = ledger + "/journal"
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".segment") }.sorted().last)
        let path = journal + "/" + segment
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 20] ^= 0x04
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    @Test("B6/A2: a bit flipped in the last frame: every reader exits 2 naming segment and sequence, apply refuses and cuts nothing; --allow-damaged reads the prefix and says what it dropped")
    func readersAndWriterRefuseDamage() throws {
        let ledger = try TallyRunner.householdLedger()
        let (segment, damaged) = try Self.flipLastFrame(ledger)
        for reader in Self.readers + [["replay"]] {
            let result = try TallyRunner.run(reader + [ledger])
            #expect(result.status == 2, "\(reader): \(result.stderr)")
            #expect(result.stderr.contains("journalCorrupted") && result.stderr.contains("sequence "), "\(reader): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(reader) printed a damaged ledger")
        }
        let apply = try TallyRunner.run(["apply", "--ledger", ledger, TallyRunner.household])
        #expect(apply.status == 2 && apply.stderr.contains("journalCorrupted"), "\(apply.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == damaged, "the writer cut or appended")
        for reader in Self.readers {
            let result = try TallyRunner.run(reader + ["--allow-damaged", ledger])
            #expect(result.status == 0, "\(reader): \(result.stderr)")
            #expect(result.stderr.contains("--allow-damaged: read records 1...") && result.stderr.contains("checksumMismatch"), "\(reader): \(result.stderr)")
        }
    }

    @Test("A3: tally repair prints the plan (exit 1, nothing changed) and with --apply keeps the valid prefix, sets the rest aside, and the ledger is writable again")
    func repairIsExplicit() throws {
        let ledger = try TallyRunner.householdLedger()
        let (segment, damaged) = try Self.flipLastFrame(ledger)
        let plan = try TallyRunner.run(["repair", ledger])
        #expect(plan.status == 1, "\(plan.stderr)")
        #expect(plan.stdout.contains("a repair keeps records 1...") && plan.stdout.contains("nothing was changed"), "\(plan.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == damaged)
        let applied = try TallyRunner.run(["repair", ledger, "--apply"])
        #expect(applied.status == 0 && applied.stdout.contains("repaired"), "\(applied.stdout)\(applied.stderr)")
        let setAside = try FileManager.default.contentsOfDirectory(atPath: ledger + "/repair/1/journal")
        #expect(setAside.count == 1 && setAside[0].contains(".segment.from-"), "\(setAside)")
        #expect(try TallyRunner.run(["balances", ledger]).status == 0)
        #expect(try TallyRunner.run(["repair", ledger]).status == 0, "nothing left to repair")
        let more = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000000f1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T10:00:00.000Z", "personID": "00000002-0000-4000-8000-0000000000f2", "name": "Zoe"}"# + "\n")
        #expect(more.status == 0, "\(more.stdout)\(more.stderr)")
    }

    @Test("I29.4: tally repair on a ledger whose segment is cut inside its 64-byte header prints a LOST: line naming the segment and what its name announces (exit 1, never journalNotFound); --apply sets it aside (exit 0) and the ledger opens and is written again")
    func repairOfACutHeader() throws {
        let ledger = try TallyRunner.householdLedger()
        let journal = ledger + "/journal"
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".segment") }.sorted().last)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: journal + "/" + segment))
        try handle.truncate(atOffset: 10)
        try handle.close()
        let plan = try TallyRunner.run(["repair", ledger])
        #expect(plan.status == 1, "\(plan.stdout)\(plan.stderr)")
        #expect(!plan.stderr.contains("journalNotFound") && !plan.stdout.contains("no journal segments"), "\(plan.stderr)")
        let lost = plan.stdout.split(separator: "\n").filter { $0.contains("LOST:") }
        #expect(lost.contains { $0.contains(segment) && $0.contains("cut inside its 64-byte header") && $0.contains("records from 1") }, "\(plan.stdout)")
        let applied = try TallyRunner.run(["repair", ledger, "--apply"])
        #expect(applied.status == 0 && applied.stdout.contains("repaired"), "\(applied.stdout)\(applied.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: ledger + "/repair/1/journal/" + segment)).count == 10, "the cut bytes are set aside")
        #expect(try TallyRunner.run(["repair", ledger]).status == 0, "nothing left to repair")
        #expect(try TallyRunner.run(["log", ledger]).status == 0, "the ledger opens for reading")
        let again = try TallyRunner.run(["apply", "--ledger", ledger, TallyRunner.household])
        #expect(again.status == 0, "the ledger is written again: \(again.stderr)")
    }

    @Test("E18: under umask 0 and umask 0277 a new ledger's folders are 0700 and its files 0600")
    func modesIgnoreTheUmask() throws {
        for mask in ["0", "0277"] {
            let ledger = TallyRunner.temporaryDirectory() + "/ledger"
            let binary = try TallyRunner.executable().path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(mask) && exec \"$0\" apply --ledger \"$1\" \"$2\" > /dev/null", binary, ledger, TallyRunner.household]
            process.currentDirectoryURL = TallyRunner.repositoryRoot
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "umask \(mask)")
            func mode(_ path: String) throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) }
            #expect(try mode(ledger) == 0o700 && mode(ledger + "/journal") == 0o700, "umask \(mask)")
            #expect(try mode(ledger + "/personal-keys") == 0o600 && mode(ledger + "/journal/00000000000000000001.segment") == 0o600, "umask \(mask)")
            #expect(try TallyRunner.run(["audit", ledger]).status == 0, "umask \(mask)")
        }
    }

    @Test("--output with a bare file name writes into the current folder and exits 0")
    func outputWithABareFileName() throws {
        let ledger = try TallyRunner.householdLedger()
        let folder = TallyRunner.temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd \"$1\" && exec \"$0\" replay \"$2\" --output rp.json", try TallyRunner.executable().path, folder, ledger]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/rp.json"))
    }

    @Test("E18/D17: export --output writes the backup (it holds personal keys) 0600, atomically")
    func exportOutputIsOwnerOnly() throws {
        let ledger = try TallyRunner.householdLedger()
        let output = TallyRunner.temporaryDirectory() + "/backup.json"
        let result = try TallyRunner.run(["export", "--format", "json", "--without-keys", "--output", output, ledger])
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
