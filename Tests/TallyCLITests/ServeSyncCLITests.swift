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

    @Test("Issue 32 (Flow US-051): Alice's device pushes through tally serve and Bob's, joined from her invitation (sync invite, sync join: the code works once), reads her texts and pulls; Bob's expense reaches Alice's device with its note and the ledger audits clean; a command by Bob from Alice's device is refused; Bob's command made --offline waits in the outbox (pending), a direct apply to his synced ledger is refused, an unreachable server exits 2 keeping it, the next sync pushes it; a wrong token exits 2")
    func twoDevicesThroughServe() throws {
        let server = try ServeProcess.start()
        defer { server.stop() }
        let scratch = TallyRunner.temporaryDirectory()
        let (_, tokens) = try server.household(people: [Self.alice, Self.bob], in: scratch)
        let aliceLedger = scratch + "/alice", bobLedger = scratch + "/bob"

        let pushed = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", server.url, "--token-file", tokens[0], "--push", Self.aliceCommands(in: scratch)])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.split(separator: "\n").count == 12 && !pushed.stdout.contains("rejected"), "\(pushed.stdout)")

        // Bob's phone joins from an invitation Alice (the admin) makes for him: its code goes to
        // the server, the household's secret only to Bob's device, which then reads Alice's texts.
        let invite = try TallyRunner.run(["sync", "invite", "--ledger", aliceLedger, "--server", server.url, "--token-file", tokens[0], "--person", Self.bob])
        #expect(invite.status == 0 && invite.stdout.hasPrefix("tally-invitation-1:"), "\(invite.stdout) \(invite.stderr)")
        let invitation = scratch + "/bob.invitation"
        try invite.stdout.write(toFile: invitation, atomically: true, encoding: .utf8)
        let bobToken = scratch + "/bob-joined.token"
        let joined = try TallyRunner.run(["sync", "join", "--ledger", bobLedger, "--server", server.url, "--invitation-file", invitation, "--token-file", bobToken])
        #expect(joined.status == 0 && joined.stdout.contains("\"status\":\"joined\"") && joined.stdout.contains(Self.bob), "\(joined.stdout) \(joined.stderr)")
        // The code works once; a device does not join into a ledger that exists.
        let again = try TallyRunner.run(["sync", "join", "--ledger", scratch + "/bob-2", "--server", server.url, "--invitation-file", invitation, "--token-file", scratch + "/bob-2.token"])
        #expect(again.status != 0 && again.stderr.contains("invitationRefused") && !FileManager.default.fileExists(atPath: scratch + "/bob-2.token"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/bob-2"), "a refused join leaves no ledger folder")
        try FileManager.default.createDirectory(atPath: scratch + "/bob-4", withIntermediateDirectories: true)
        let intoEmpty = try TallyRunner.run(["sync", "join", "--ledger", scratch + "/bob-4", "--server", server.url, "--invitation-file", invitation, "--token-file", scratch + "/bob-4.token"])
        let leftInEmpty = try FileManager.default.contentsOfDirectory(atPath: scratch + "/bob-4")
        #expect(intoEmpty.status != 0 && leftInEmpty.isEmpty, "a refused join empties the folder it was given: \(leftInEmpty) \(intoEmpty.stderr)")
        let existing = try TallyRunner.run(["sync", "join", "--ledger", aliceLedger, "--server", server.url, "--invitation-file", invitation, "--token-file", scratch + "/bob-3.token"])
        #expect(existing.status != 0 && existing.stderr.contains("holds a ledger already"), "\(existing.stderr)")
        let expense = TallyRunner.repositoryRoot.appendingPathComponent("Examples/Sync/bob-expense.jsonl").path
        let bobPush = try TallyRunner.run(["sync", "--ledger", bobLedger, "--server", server.url, "--token-file", bobToken, "--push", expense])
        #expect(bobPush.status == 0 && bobPush.stdout.contains("\"status\":\"ok\""), "\(bobPush.stdout) \(bobPush.stderr)")

        // Bob's name, sealed on Alice's device with the key it made for him, opens on his.
        let bobsList = try TallyRunner.run(["transactions", bobLedger, "--limit", "1"])
        #expect(bobsList.stdout.contains("Bob secret note") && bobsList.stdout.contains("Groceries  Bob "), "\(bobsList.stdout)")
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
        let unreachable = try TallyRunner.run(["sync", "--ledger", bobLedger, "--server", "http://127.0.0.1:9", "--token-file", bobToken])
        #expect(unreachable.status == 2 && unreachable.stderr.contains("1 command(s) wait in the outbox"), "\(unreachable.stderr)")
        let synced = try TallyRunner.run(["sync", "--ledger", bobLedger, "--server", server.url, "--token-file", bobToken])
        #expect(synced.status == 0 && synced.stdout.contains("\"commandID\":\"0000000c-0000-4000-8000-00000000f003\",\"status\":\"ok\""), "\(synced.stdout) \(synced.stderr)")

        let wrongToken = scratch + "/wrong.token"
        try "not-a-token\n".write(toFile: wrongToken, atomically: true, encoding: .utf8)
        let refused = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", server.url, "--token-file", wrongToken])
        #expect(refused.status == 2 && refused.stderr.contains("tokenRefused"), "\(refused.stderr)")
    }
}
