import Foundation
import TallyTestSupport
import Testing

@Suite("tally CLI", .serialized)
struct TallyCLITests {
    @Test("apply prints one ok line per command with its sequence numbers")
    func applyReportsEveryLine() throws {
        let ledger = TallyRunner.temporaryDirectory() + "/l"
        let result = try TallyRunner.run(["apply", "--ledger", ledger, TallyRunner.household])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 76)
        let first = try TallyRunner.jsonObject(lines[0])
        #expect(first["line"] as? Int == 1)
        #expect(first["status"] as? String == "ok")
        #expect((first["sequenceNumbers"] as? [Int])?.first == 1)
    }

    @Test("a rejected command exits 1 with its code and rule in the JSON line")
    func rejectedCommandExitsOne() throws {
        let ledger = try TallyRunner.householdLedger()
        let bad = #"{"command": "setSplitRatio", "commandID": "0000000c-0000-4000-8000-0000000000f1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "mode": "manual", "ratios": [{"person": "00000002-0000-4000-8000-000000000001", "basisPoints": 6000}, {"person": "00000002-0000-4000-8000-000000000002", "basisPoints": 3000}]}"#
        let result = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: bad + "\n")
        #expect(result.status == 1)
        let line = try TallyRunner.jsonObject(try #require(result.stdout.split(separator: "\n").first))
        #expect(line["status"] as? String == "rejected")
        #expect(line["rule"] as? String == "S1")
        #expect(line["code"] as? String == "splitRatiosMustSumTo100")
        #expect(line["line"] as? Int == 1)
    }

    @Test("apply --atomic appends nothing when one line is rejected")
    func atomicAppendsNothing() throws {
        let ledger = try TallyRunner.householdLedger()
        let before = try TallyRunner.run(["replay", ledger]).stdout
        let good = #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-0000000000f2", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "personID": "00000002-0000-4000-8000-0000000000f9", "name": "Dora"}"#
        let bad = #"{"command": "openWallet", "commandID": "0000000c-0000-4000-8000-0000000000f3", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:01:00.000Z", "walletID": "00000003-0000-4000-8000-0000000000f1", "name": "joint ACCOUNT", "kind": "bank", "openingBalance": "CHF 1.00", "openedOn": "2026-02-20"}"#
        let result = try TallyRunner.run(["apply", "--atomic", "--ledger", ledger, "-"], stdin: good + "\n" + bad + "\n")
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""line":2,"status":"rejected""#))
        #expect(result.stdout.contains(#""rule":"W2""#))
        let stats = try TallyRunner.run(["stats", "--json", ledger])
        #expect(stats.stdout.contains(#""lastSequenceNumber":94"#))
        #expect(try TallyRunner.run(["replay", ledger]).stdout == before)
    }

    @Test("G6: apply --atomic with more commands than one journal frame holds is refused before the ledger is opened, naming the limit and the count")
    func atomicBatchOverTheFrameLimitIsRefusedEarly() throws {
        let ledger = TallyRunner.temporaryDirectory() + "/big"
        let count = 100_001
        var lines = ""
        lines.reserveCapacity(count * 240)
        for index in 0..<count {
            let suffix = String(index, radix: 16)
            let padded = String(repeating: "0", count: 12 - suffix.count) + suffix
            lines += #"{"command": "addPerson", "commandID": "0000000d-0000-4000-8000-"# + padded
                + #"", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "personID": "0000000e-0000-4000-8000-"#
                + padded + #"", "name": "P"}"# + "\n"
        }
        let file = TallyRunner.temporaryDirectory() + "/big.jsonl"
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try TallyRunner.run(["apply", "--atomic", "--ledger", ledger, file])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("batchTooLarge") && result.stderr.contains("100000") && result.stderr.contains("100001"), "\(result.stderr)")
        #expect(result.stderr.contains("without --atomic"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ledger), "nothing was created or written")
    }

    @Test("replay twice gives byte-identical output")
    func replayIsDeterministic() throws {
        let ledger = try TallyRunner.householdLedger()
        let first = try TallyRunner.run(["replay", ledger])
        let second = try TallyRunner.run(["replay", "--ledger", ledger])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.hasPrefix(#"{"budgets":"#))
    }

    @Test("the demo household replays (through the binary) to its golden file, Tests/Fixtures/demo-readmodels.json")
    func householdMatchesGolden() throws {
        let ledger = try TallyRunner.householdLedger()
        let golden = RepositoryFiles.fixture("demo-readmodels.json").path
        if ProcessInfo.processInfo.environment["TALLY_RECORD_SNAPSHOTS"] == "1" {
            try TallyRunner.run(["replay", ledger, "--output", golden])
        }
        let result = try TallyRunner.run(["verify", ledger, "--expect", golden])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("verify fails with exit 1 and a readable diff when a golden value is edited")
    func verifyShowsDiffOnMismatch() throws {
        let ledger = try TallyRunner.householdLedger()
        let golden = TallyRunner.temporaryDirectory() + "/golden.json"
        try TallyRunner.run(["replay", ledger, "--output", golden])
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        try text.replacingOccurrences(of: #""name":"Bob cash""#, with: #""name":"Bob wallet""#).write(toFile: golden, atomically: true, encoding: .utf8)
        let result = try TallyRunner.run(["verify", ledger, "--expect", golden])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"- $.wallets.wallets[2].name: "Bob wallet""#))
        #expect(result.stdout.contains(#"+ $.wallets.wallets[2].name: "Bob cash""#))
    }

    @Test("audit exits 0 on a clean ledger, 1 on a damaged segment, 2 on a missing ledger")
    func auditExitCodes() throws {
        let ledger = try TallyRunner.householdLedger()
        let clean = try TallyRunner.run(["audit", "--json", ledger])
        #expect(clean.status == 0)
        let report = try TallyRunner.jsonObject(Substring(clean.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(report["clean"] as? Bool == true)
        #expect(report["records"] as? Int == 94)
        #expect(report["eventsDecoded"] as? Int == 94)
        try TallyRunner.damage(ledger)
        let damaged = try TallyRunner.run(["audit", ledger])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("segment 00000000000000000001.segment"))
        #expect(damaged.stdout.contains("offset"))
        let missing = try TallyRunner.run(["audit", "/nonexistent/tally-ledger"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/tally-ledger"))
    }

    @Test("read commands exit 2 naming the directory when the ledger is missing")
    func missingLedgerExitsTwo() throws {
        for command in ["replay", "balances", "debts", "budget", "networth", "log", "stats"] {
            let result = try TallyRunner.run([command, "/nonexistent/tally-ledger"])
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr.contains("/nonexistent/tally-ledger"), "\(command)")
        }
    }

    @Test("P3, P5, TECH-009: forgetPerson through apply; export --format person shows Bob's data with his name redacted")
    func forgetAndExportPerson() throws {
        let ledger = try TallyRunner.householdLedger()
        let bob = "00000002-0000-4000-8000-000000000002"
        let before = try TallyRunner.run(["export", "--format", "person", "--person", bob, ledger])
        #expect(before.status == 0, "\(before.stderr)")
        let exported = try TallyRunner.jsonObject(Substring(before.stdout))
        #expect((exported["person"] as? [String: Any])?["name"] as? String == "Bob")
        #expect(!before.stdout.contains("Alice savings"), "G7: Alice's own wallet is not in Bob's export")
        let forget = """
        {"command": "removeMember", "commandID": "0000000c-0000-4000-8000-0000000000e1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T08:00:00.000Z", "personID": "\(bob)", "acknowledgeUnsettled": true}
        {"command": "forgetPerson", "commandID": "0000000c-0000-4000-8000-0000000000e2", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T08:01:00.000Z", "personID": "\(bob)"}
        """
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: forget + "\n")
        #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")
        let after = try TallyRunner.run(["export", "--format", "person", "--person", bob, ledger])
        let redacted = try TallyRunner.jsonObject(Substring(after.stdout))
        let person = try #require(redacted["person"] as? [String: Any])
        #expect(person["name"] == nil && person["forgotten"] as? Bool == true)
        #expect(after.stdout.contains("\"noteRedacted\" : true"))
        let log = try TallyRunner.run(["log", ledger])
        #expect(log.stdout.contains("[redacted]") && !log.stdout.contains("member Bob"))
        #expect(try TallyRunner.run(["audit", ledger]).status == 0)
        let missing = try TallyRunner.run(["export", "--format", "person", ledger])
        #expect(missing.status == 2 && missing.stderr == "tally: --format person needs --person ID\n", "\(missing.stderr)")
    }

    @Test("an encrypted ledger is written and read with the key from TALLY_KEY, never from argv")
    func encryptedLedgerThroughTheCLI() throws {
        let ledger = TallyRunner.temporaryDirectory() + "/ledger"
        let key = String(repeating: "ab", count: 32)
        let created = try TallyRunner.run(["apply", "--ledger", ledger, TallyRunner.household], environment: ["TALLY_KEY": key])
        #expect(created.status == 0, "\(created.stderr)")
        let balances = try TallyRunner.run(["balances", ledger], environment: ["TALLY_KEY": key])
        #expect(balances.status == 0 && balances.stdout.contains("Joint account"))
        let withoutKey = try TallyRunner.run(["balances", ledger])
        #expect(withoutKey.status == 2 && withoutKey.stderr.contains("encryptionKeyMissing"), "\(withoutKey.stderr)")
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: ledger + "/journal").first { $0.hasSuffix(".segment") })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ledger + "/journal/" + segment))
        #expect(bytes.range(of: Data("Joint account".utf8)) == nil)
    }

    @Test("human reports match their snapshots")
    func humanOutputSnapshots() throws {
        let ledger = try TallyRunner.householdLedger()
        for (name, arguments) in [
            ("balances", ["balances", ledger]), ("debts", ["debts", ledger]), ("networth", ["networth", ledger]),
            ("budget", ["budget", ledger, "--period", "2026-01-10"]), ("log-bob-cash", ["log", ledger, "--wallet", "Bob cash"]),
            ("audit", ["audit", ledger]), ("stats", ["stats", ledger]),
        ] {
            let result = try TallyRunner.run(arguments)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            try TallyRunner.assertSnapshot(result.stdout, named: name, replacing: ledger)
        }
    }

    @Test("issue 28: stats --store lists the read-side store's bytes by table and index (the transactions, an index of them, the checkpoint's history); --json --store gives the same objects, which sum to the store's bytes (plain --json: the total only); without a store it says so")
    func statsListsTheStoreByTable() throws {
        let ledger = try TallyRunner.householdLedger()
        let listed = try TallyRunner.run(["stats", "--store", ledger])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n")
        for name in ["transactions", "transactions_by_wallet", "history", "checkpoint"] {
            #expect(lines.contains { $0.hasPrefix(name + " ") }, "\(name) in \(listed.stdout)")
        }
        let json = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["stats", "--json", "--store", ledger]).stdout))
        let objects = try #require(json["storeBytesByObject"] as? [String: Int])
        let total = try #require(json["storeBytes"] as? Int)
        #expect(objects.values.reduce(0, +) == total, "every page is some table's, some index's or free")
        let plain = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["stats", "--json", ledger]).stdout))
        #expect(plain["storeBytes"] as? Int == total && plain["storeBytesByObject"] is NSNull, "without --store: the total only")
        #expect((objects["transactions"] ?? 0) > 0 && (objects["history"] ?? 0) > 0)

        try FileManager.default.removeItem(atPath: ledger + "/read-side")
        let without = try TallyRunner.run(["stats", "--store", ledger])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stdout.contains("Store: none readable"))
        let noStore = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["stats", "--json", ledger]).stdout))
        #expect(noStore["storeBytes"] is NSNull)
    }

    @Test("balances --json lists every wallet with its balance in minor units")
    func balancesJSON() throws {
        let ledger = try TallyRunner.householdLedger()
        let result = try TallyRunner.run(["balances", "--json", ledger])
        let object = try TallyRunner.jsonObject(Substring(result.stdout))
        let wallets = try #require(object["wallets"] as? [[String: Any]])
        #expect(wallets.count == 6)
        let joint = try #require(wallets.first { $0["name"] as? String == "Joint account" })
        let balance = try #require(joint["balance"] as? [String: Any])
        #expect(balance["currency"] as? String == "CHF")
        #expect(balance["minorUnits"] as? Int == 1_496_855)
    }

    @Test("log --json prints one object per event, filtered by type")
    func logJSONLines() throws {
        let ledger = try TallyRunner.householdLedger()
        let result = try TallyRunner.run(["log", "--json", "--type", "settlementRecorded", ledger])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try TallyRunner.jsonObject(lines[0])
        #expect(first["type"] as? String == "settlementRecorded")
        #expect(first["sequenceNumber"] as? Int == 52)
        let second = try TallyRunner.jsonObject(lines[1])
        #expect(second["type"] as? String == "settlementRecorded")
        #expect(second["sequenceNumber"] as? Int == 66)
    }

    @Test("replay on a damaged ledger exits 2 with journalCorrupted naming the ledger and the segment, and prints no read models")
    func replayDamaged() throws {
        let ledger = try TallyRunner.householdLedger()
        try TallyRunner.damage(ledger)
        let result = try TallyRunner.run(["replay", ledger])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(ledger): journalCorrupted: ") && result.stderr.contains("segment 00000000000000000001.segment"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("diff of a ledger and its restored backup is identical; import twice inserts nothing")
    func exportImportRoundTrip() throws {
        let ledger = try TallyRunner.householdLedger()
        let directory = TallyRunner.temporaryDirectory()
        let key = try TallyRunner.backupKeyFile(in: directory)
        #expect(try TallyRunner.run(["export", ledger, "--format", "json", "--backup-key-file", key, "--output", directory + "/b.json"]).status == 0)
        #expect(try TallyRunner.run(["import", "backup", directory + "/b.json", "--backup-key-file", key, "--ledger", directory + "/restored"]).status == 0)
        #expect(try TallyRunner.run(["diff", ledger, directory + "/restored"]).status == 0)
        try "date,amount,note,category\n2026-02-20,-12.50,Bakery,Groceries\n".write(toFile: directory + "/i.csv", atomically: true, encoding: .utf8)
        let first = try TallyRunner.run(["import", "csv", directory + "/i.csv", "--ledger", ledger, "--wallet", "Bob cash"])
        #expect(first.stdout.contains(#""status":"inserted""#))
        let second = try TallyRunner.run(["import", "csv", directory + "/i.csv", "--ledger", ledger, "--wallet", "Bob cash"])
        #expect(!second.stdout.contains(#""status":"inserted""#))
        #expect(second.stdout.contains(#""status":"skipped""#))
        #expect(try TallyRunner.run(["diff", ledger, directory + "/restored"]).status == 1)
    }
}

extension TallyCLITests {
    @Test("E11-S4, G6: apply --limit wallets=N caps live wallets for these commands (entityLimitReached); a bad --limit is a usage error; replay ignores caps")
    func applyWithEntityLimit() throws {
        let ledger = try TallyRunner.householdLedger()
        let open = #"{"command": "openWallet", "commandID": "0000000c-0000-4000-8000-0000000000f4", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:01:00.000Z", "walletID": "00000003-0000-4000-8000-0000000000f2", "name": "Piggy bank", "kind": "cash", "openingBalance": "CHF 1.00", "openedOn": "2026-02-20"}"#
        let capped = try TallyRunner.run(["apply", "--limit", "wallets=1", "--ledger", ledger, "-"], stdin: open + "\n")
        #expect(capped.status == 1)
        #expect(capped.stdout.contains(#""code":"entityLimitReached""#))
        #expect(capped.stdout.contains(#""rule":"G6""#))
        let bad = try TallyRunner.run(["apply", "--limit", "accounts=1", "--ledger", ledger, "-"], stdin: open + "\n")
        #expect(bad.status != 0 && bad.status != 1)
        #expect(bad.stderr.contains("wallets, goals"))
        #expect(try TallyRunner.run(["replay", ledger]).status == 0)
        let free = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: open + "\n")
        #expect(free.status == 0)
    }
}
