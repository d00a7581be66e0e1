import Foundation
import SystemPackage
import TallyJournal
import Testing

/// Bad keys, locked ledgers, damaged and undecodable journals through the `tally` binary: one
/// exit code and a message that says what is wrong, never a partial write.
@Suite("tally CLI reliability", .serialized)
struct CLIReliabilityTests {
    static let goodKey = String(repeating: "ab", count: 32)
    static let chainKey = String(repeating: "c3", count: 24)

    // MARK: Keys (encryption and chain)

    @Test("CLI guarantee: a malformed key in $TALLY_KEY or --key-file is exit 2 naming its source and the fault; nothing is created")
    func malformedKeysExitTwo() throws {
        let cases: [(key: String, message: String)] = [
            ("xyz" + String(repeating: "0", count: 61), "not a hex digit"),
            (String(repeating: "a", count: 63), "63 hex digits; it needs an even number"),
            ("one:" + Self.goodKey, "the key id before ':' must be a number 1...65535"),
            ("0:" + Self.goodKey, "the key id before ':' must be a number 1...65535"),
            (String(repeating: "ab", count: 10), "invalidOptions"),
        ]
        for (key, message) in cases {
            let directory = TallyRunner.temporaryDirectory()
            let ledger = directory + "/ledger"
            let fromEnvironment = try TallyRunner.run(["apply", "--ledger", ledger, TallyRunner.household], environment: ["TALLY_KEY": key])
            #expect(fromEnvironment.status == 2, "\(key): \(fromEnvironment.stderr)")
            #expect(fromEnvironment.stderr.contains("$TALLY_KEY") && fromEnvironment.stderr.contains(message), "\(fromEnvironment.stderr)")
            #expect(fromEnvironment.stdout.isEmpty)
            let keyFile = directory + "/key"
            try (key + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
            let fromFile = try TallyRunner.run(["apply", "--key-file", keyFile, "--ledger", ledger, TallyRunner.household])
            #expect(fromFile.status == 2, "\(key): \(fromFile.stderr)")
            #expect(fromFile.stderr.contains("--key-file \(keyFile)") && fromFile.stderr.contains(message), "\(fromFile.stderr)")
            #expect(!FileManager.default.fileExists(atPath: ledger), "a bad key must not create the ledger")
        }
        let missing = try TallyRunner.run(["balances", "--key-file", "/nonexistent/key", "/nonexistent/ledger"])
        #expect(missing.status == 2 && missing.stderr.contains("--key-file /nonexistent/key: cannot read the key file"), "\(missing.stderr)")
    }

    @Test("CLI guarantee: a keyed-chain ledger is written and audited with the chain key from $TALLY_CHAIN_KEY or --chain-key-file; without it audit reports chainMismatch and writes exit 2")
    func keyedChainLedger() throws {
        let directory = TallyRunner.temporaryDirectory()
        let ledger = directory + "/ledger"
        let environment = ["TALLY_CHAIN_KEY": Self.chainKey]
        let created = try TallyRunner.run(["apply", "--ledger", ledger, TallyRunner.household], environment: environment)
        #expect(created.status == 0, "\(created.stderr)")
        let audited = try TallyRunner.run(["audit", ledger], environment: environment)
        #expect(audited.status == 0, "\(audited.stdout)\(audited.stderr)")
        let keyFile = directory + "/chain.key"
        try Self.chainKey.write(toFile: keyFile, atomically: true, encoding: .utf8)
        #expect(try TallyRunner.run(["audit", "--chain-key-file", keyFile, ledger]).status == 0)
        let withoutKey = try TallyRunner.run(["audit", ledger])
        #expect(withoutKey.status == 1 && withoutKey.stdout.contains("chainMismatch"), "\(withoutKey.stdout)")
        let wrongKey = try TallyRunner.run(["audit", ledger], environment: ["TALLY_CHAIN_KEY": String(repeating: "d4", count: 24)])
        #expect(wrongKey.status == 1 && wrongKey.stdout.contains("chainMismatch"))
        let person = #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000000a1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "personID": "00000002-0000-4000-8000-0000000000a9", "name": "Dora"}"#
        let unkeyedWrite = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: person + "\n")
        #expect(unkeyedWrite.status == 2 && unkeyedWrite.stderr.contains("chainKeyMismatch"), "\(unkeyedWrite.stderr)")
        let keyedWrite = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: person + "\n", environment: environment)
        #expect(keyedWrite.status == 0, "\(keyedWrite.stderr)")
        let badKey = try TallyRunner.run(["audit", ledger], environment: ["TALLY_CHAIN_KEY": "abc"])
        #expect(badKey.status == 2 && badKey.stderr.contains("$TALLY_CHAIN_KEY"), "\(badKey.stderr)")
    }

    // MARK: Two writers

    @Test("CLI guarantee: tally apply on a ledger another process holds open for writing is exit 2 journalLocked naming the ledger; nothing is appended")
    func secondWriterProcessIsRefused() async throws {
        let ledger = try TallyRunner.householdLedger()
        let before = try TallyRunner.run(["replay", ledger]).stdout
        let holder = try Journal.open(at: FilePath(ledger + "/journal"))  // takes the same flock a Ledger takes
        let person = #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000000b1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "personID": "00000002-0000-4000-8000-0000000000b9", "name": "Dora"}"#
        let locked = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: person + "\n")
        #expect(locked.status == 2, "\(locked.stdout)\(locked.stderr)")
        #expect(locked.stderr.contains("journalLocked") && locked.stderr.contains(ledger), "\(locked.stderr)")
        #expect(locked.stdout.isEmpty)
        try holder.close()
        #expect(try TallyRunner.run(["replay", ledger]).stdout == before)
        let unlocked = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: person + "\n")
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
    }

    // MARK: Damaged and undecodable journals

    @Test("CLI guarantee: replay on a ledger with a damaged frame is exit 2 with journalCorrupted naming the segment")
    func replayOnDamagedLedger() throws {
        let ledger = try TallyRunner.householdLedger()
        try TallyRunner.damage(ledger)
        let result = try TallyRunner.run(["replay", ledger])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(ledger) && result.stderr.contains("journalCorrupted"), "\(result.stderr)")
        #expect(result.stderr.contains("00000000000000000001.segment"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("CLI guarantee: apply prints status invalid with code, field and line for a line that does not parse, applies the others, and exits 1")
    func applyInvalidLine() throws {
        let ledger = try TallyRunner.householdLedger()
        let good = #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000000c1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "personID": "00000002-0000-4000-8000-0000000000c9", "name": "Dora"}"#
        let misspelt = #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000000c2", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:01:00.000Z", "personID": "00000002-0000-4000-8000-0000000000c8", "name": "Eve", "nmae": "Eve"}"#
        let result = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: "// people\n" + misspelt + "\n" + good + "\n")
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let invalid = try TallyRunner.jsonObject(try #require(lines.first))
        #expect(invalid["status"] as? String == "invalid")
        #expect(invalid["line"] as? Int == 2)
        #expect(invalid["code"] as? String == "unknownField")
        #expect(invalid["field"] as? String == "nmae")
        #expect((invalid["message"] as? String)?.isEmpty == false)
        let ok = try TallyRunner.jsonObject(try #require(lines.last))
        #expect(ok["status"] as? String == "ok" && ok["line"] as? Int == 3)
        let atomic = try TallyRunner.run(["apply", "--atomic", "--ledger", ledger, "-"], stdin: misspelt + "\n")
        #expect(atomic.status == 1 && atomic.stderr.contains("nothing applied (--atomic)"))
    }

    @Test("CLI guarantee: a stored record that does not decode is eventUndecodable in audit (exit 1, with its place) and a codec error from replay (exit 2)")
    func undecodableRecord() async throws {
        let ledger = try TallyRunner.householdLedger()
        let journal = try Journal.open(at: FilePath(ledger + "/journal"))
        let receipt = try await journal.append([NewRecord(recordedAtMilliseconds: 1_780_000_000_000, typeTag: 999, schemaVersion: 1, payload: [1, 2, 3])])
        try journal.close()
        let sequence = receipt.firstSequenceNumber
        let audit = try TallyRunner.run(["audit", "--json", ledger])
        #expect(audit.status == 1, "\(audit.stdout)\(audit.stderr)")
        let report = try TallyRunner.jsonObject(Substring(audit.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["code"] as? String == "eventUndecodable")
        #expect(problems.first?["segment"] as? String == "00000000000000000001.segment")
        #expect((problems.first?["message"] as? String)?.contains("999") == true, "\(problems)")
        let replay = try TallyRunner.run(["replay", ledger])
        #expect(replay.status == 2, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stderr.contains("unknownTag") && replay.stderr.contains("record \(sequence) cannot be decoded"), "\(replay.stderr)")
        let balances = try TallyRunner.run(["balances", ledger])
        #expect(balances.status == 2 && balances.stderr.contains("unknownTag"), "\(balances.stderr)")
    }
}
