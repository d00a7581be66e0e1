import Foundation
import Testing

/// Issue 32 (Docs/Sync.md, README "Two devices"): `tally serve` and `tally sync` as the README's
/// quick start uses them.
@Suite("tally serve and tally sync")
struct ServeSyncCLITests {
    static let alice = "00000002-0000-4000-8000-000000000001"
    static let bob = "00000002-0000-4000-8000-000000000002"

    /// The first twelve commands of the demo household that Alice issues.
    static func aliceCommands(in directory: String) throws -> String {
        let lines = try String(contentsOfFile: TallyRunner.household, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"actor\": \"\(alice)\"") }.prefix(12)
        let path = directory + "/alice.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Issue 32 (Flow US-051): Alice's device pushes through tally serve and Bob's, set up from a copy, pulls; Bob's expense reaches Alice's device with its note and the ledger audits clean; a command by Bob from Alice's device is refused; Bob's command made --offline waits in the outbox (pending), a direct apply to his synced ledger is refused, an unreachable server exits 2 keeping it, the next sync pushes it; a wrong token exits 2")
    func twoDevicesThroughServe() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let scratch = TallyRunner.temporaryDirectory()
        let (_, tokens) = try server.household(people: [Self.alice, Self.bob], in: scratch)
        let aliceLedger = scratch + "/alice", bobLedger = scratch + "/bob"

        let pushed = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", server.url, "--token-file", tokens[0], "--push", Self.aliceCommands(in: scratch)])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.split(separator: "\n").count == 12 && !pushed.stdout.contains("rejected"), "\(pushed.stdout)")

        try FileManager.default.createDirectory(atPath: bobLedger, withIntermediateDirectories: true)
        for name in ["journal", "personal-keys"] {
            try FileManager.default.copyItem(atPath: aliceLedger + "/" + name, toPath: bobLedger + "/" + name)
        }
        let expense = TallyRunner.repositoryRoot.appendingPathComponent("Examples/Sync/bob-expense.jsonl").path
        let bobPush = try TallyRunner.run(["sync", "--ledger", bobLedger, "--server", server.url, "--token-file", tokens[1], "--push", expense])
        #expect(bobPush.status == 0 && bobPush.stdout.contains("\"status\":\"ok\""), "\(bobPush.stdout) \(bobPush.stderr)")

        let pulled = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", server.url, "--token-file", tokens[0]])
        #expect(pulled.status == 0 && pulled.stderr.contains("(1 record(s) pulled)"), "\(pulled.stderr)")
        let listed = try TallyRunner.run(["transactions", aliceLedger, "--limit", "1"])
        #expect(listed.stdout.contains("Bob secret note"), "\(listed.stdout)")
        let audit = try TallyRunner.run(["audit", aliceLedger])
        #expect(audit.status == 0, "\(audit.stdout)")

        // Another expense of Bob's, pushed from Alice's device.
        let another = scratch + "/another.jsonl"
        try String(contentsOfFile: expense, encoding: .utf8).replacingOccurrences(of: "f001\"", with: "f002\"")
            .write(toFile: another, atomically: true, encoding: .utf8)
        let asBob = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", server.url, "--token-file", tokens[0], "--push", another])
        #expect(asBob.status == 1 && asBob.stdout.contains("actorNotDevicePerson"), "\(asBob.stdout) \(asBob.stderr)")

        // Bob offline: the command waits in his device's outbox; a direct write to his synced
        // ledger is refused; the next sync pushes the outbox and names the command it answered.
        let offline = scratch + "/offline.jsonl"
        try String(contentsOfFile: expense, encoding: .utf8).replacingOccurrences(of: "f001\"", with: "f003\"")
            .write(toFile: offline, atomically: true, encoding: .utf8)
        let recorded = try TallyRunner.run(["sync", "--ledger", bobLedger, "--offline", "--push", offline])
        #expect(recorded.status == 0 && recorded.stdout.contains("\"status\":\"pending\"") && recorded.stderr.contains("1 command(s) wait in its outbox"), "\(recorded.stdout) \(recorded.stderr)")
        let beside = try TallyRunner.run(["apply", "--ledger", bobLedger, offline.replacingOccurrences(of: "offline", with: "another")])
        #expect(beside.status != 0 && beside.stderr.contains("syncedLedger"), "\(beside.stdout) \(beside.stderr)")
        let unreachable = try TallyRunner.run(["sync", "--ledger", bobLedger, "--server", "http://127.0.0.1:9", "--token-file", tokens[1]])
        #expect(unreachable.status == 2 && unreachable.stderr.contains("1 command(s) wait in the outbox"), "\(unreachable.stderr)")
        let synced = try TallyRunner.run(["sync", "--ledger", bobLedger, "--server", server.url, "--token-file", tokens[1]])
        #expect(synced.status == 0 && synced.stdout.contains("\"commandID\":\"0000000c-0000-4000-8000-00000000f003\",\"status\":\"ok\""), "\(synced.stdout) \(synced.stderr)")

        let wrongToken = scratch + "/wrong.token"
        try "not-a-token\n".write(toFile: wrongToken, atomically: true, encoding: .utf8)
        let refused = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", server.url, "--token-file", wrongToken])
        #expect(refused.status == 2 && refused.stderr.contains("tokenRefused"), "\(refused.stderr)")
    }
}
