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

    /// `count` expenses of Alice's (the demo's joint account), as JSON lines, ids from `first`.
    static func aliceExpenses(count: Int, first: Int, in directory: String) throws -> String {
        let template = try String(contentsOf: TallyRunner.repositoryRoot.appendingPathComponent("Examples/Sync/bob-expense.jsonl"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: bob, with: alice).replacingOccurrences(of: "Bob secret note", with: "Alice's note")
        let lines = (first..<first + count).map { template.replacingOccurrences(of: "f001\"", with: String(format: "%04x\"", $0)) }
        let path = directory + "/alice-\(first).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Where `tally sync` says the ledger's confirmed history ends.
    static func through(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: "holds the household's history through ") else { return nil }
        return Int(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// Waits while `process` runs until the device's outbox in `ledger` (its database and WAL)
    /// has been written `writes` times, polled every millisecond: tally sync commits the outbox
    /// when it records the --push commands and again when each push of up to 100 is answered, so
    /// a kill after the second write lands in the middle of a push of 300 or more, at a moment
    /// the run itself shows rather than a guessed delay. False when the process ended first.
    static func awaitOutboxWrites(_ writes: Int, in ledger: String, of process: Process) -> Bool {
        let paths = ["sync-outbox.sqlite", "sync-outbox.sqlite-wal"].map { ledger + "/" + $0 }
        func stamp() -> [Int] {
            paths.flatMap { path -> [Int] in
                var info = stat()
                guard stat(path, &info) == 0 else { return [-1, -1, -1] }
                return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
            }
        }
        var last = stamp()
        var seen = 0
        while process.isRunning {
            let now = stamp()
            if now != last {
                seen += 1
                last = now
                if seen == writes { return true }
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return false
    }

    /// Runs `tally sync` with `arguments` on `ledger`, kills it with SIGKILL after its outbox's
    /// second write (`awaitOutboxWrites`), and returns its exit status (9 when killed).
    static func killedDuringPush(_ arguments: [String], ledger: String) throws -> Int32 {
        let process = Process()
        process.executableURL = try TallyRunner.executable()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if awaitOutboxWrites(2, in: ledger, of: process) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("Issue 32 (kill -9): two tally serve processes on one PostgreSQL; the server Alice pushes to is killed with SIGKILL during her push of 400 expenses, and her sync through the other server pushes what was left; her tally sync is killed with SIGKILL during a push of 300 more, and running it again pushes them; every expense is in the history once (one record each), Bob's device joined through the second server holds the same history, and both ledgers audit clean")
    func killedServerAndDevice() throws {
        let first = try ServeProcess.start()
        defer { first.stop() }
        let second = try ServeProcess.start()
        defer { second.stop() }
        let scratch = TallyRunner.temporaryDirectory()
        let (_, tokens) = try first.household(people: [Self.alice], in: scratch)
        let aliceLedger = scratch + "/alice"
        let setup = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", first.url, "--token-file", tokens[0], "--push", Self.aliceCommands(in: scratch)])
        #expect(setup.status == 0, "\(setup.stderr)")
        let base = try #require(Self.through(setup.stderr))

        // The server dies during the push: an append in flight is rolled back by PostgreSQL or
        // committed; the device keeps every unanswered command in its outbox.
        let batch = try Self.aliceExpenses(count: 400, first: 0x1000, in: scratch)
        let push = Process()
        push.executableURL = try TallyRunner.executable()
        push.arguments = ["sync", "--ledger", aliceLedger, "--server", first.url, "--token-file", tokens[0], "--push", batch]
        push.standardOutput = FileHandle.nullDevice
        push.standardError = FileHandle.nullDevice
        try push.run()
        let pushing = Self.awaitOutboxWrites(2, in: aliceLedger, of: push)
        kill(first.process.processIdentifier, SIGKILL)
        #expect(pushing, "the server was killed while tally sync pushed, not after it ended")
        push.waitUntilExit()
        #expect(push.terminationStatus == 2, "the server died during the push: tally sync exits 2 keeping the outbox, not \(push.terminationStatus)")
        let resumed = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", second.url, "--token-file", tokens[0]])
        #expect(resumed.status == 0 && Self.through(resumed.stderr) == base + 400, "\(resumed.stderr)")

        // The device dies during a push: commands recorded in its outbox before it died are
        // pushed once; pushing the same file again records only the rest.
        let more = try Self.aliceExpenses(count: 300, first: 0x2000, in: scratch)
        let status = try Self.killedDuringPush(["sync", "--ledger", aliceLedger, "--server", second.url, "--token-file", tokens[0], "--push", more], ledger: aliceLedger)
        #expect(status == SIGKILL, "the device was killed during its push, not done before: \(status)")
        let again = try TallyRunner.run(["sync", "--ledger", aliceLedger, "--server", second.url, "--token-file", tokens[0], "--push", more])
        #expect(again.status == 0 && Self.through(again.stderr) == base + 700, "\(again.stderr)")
        #expect(again.stdout.split(separator: "\n").filter { $0.contains("\"line\":") && $0.contains("\"status\":\"ok\"") }.count == 300, "every line of the file answered ok")

        // Bob's phone joins through the second server and holds the same history.
        let invite = try TallyRunner.run(["sync", "invite", "--ledger", aliceLedger, "--server", second.url, "--token-file", tokens[0], "--person", Self.bob])
        let invitation = scratch + "/bob.invitation"
        try invite.stdout.write(toFile: invitation, atomically: true, encoding: .utf8)
        let joined = try TallyRunner.run(["sync", "join", "--ledger", scratch + "/bob", "--server", second.url, "--invitation-file", invitation, "--token-file", scratch + "/bob.token"])
        #expect(joined.status == 0 && joined.stdout.contains("\"through\":\(base + 700)"), "\(joined.stdout) \(joined.stderr)")
        for ledger in [aliceLedger, scratch + "/bob"] {
            let audit = try TallyRunner.run(["audit", ledger])
            #expect(audit.status == 0, "\(ledger): \(audit.stdout)")
        }
        let aliceList = try TallyRunner.run(["transactions", aliceLedger, "--limit", "1000"])
        let bobList = try TallyRunner.run(["transactions", scratch + "/bob", "--limit", "1000"])
        #expect(aliceList.stdout == bobList.stdout && aliceList.stdout.components(separatedBy: "Alice's note").count - 1 == 700)
    }
}
