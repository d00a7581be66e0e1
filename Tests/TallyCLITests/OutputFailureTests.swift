import Foundation
import TallyTestSupport
import Testing
@testable import TallyCLI

/// Item 9 and 10 of "Never lose, never serve damaged data, never crash": a stdout that cannot be
/// written (full disk, closed pipe) is exit 3 with a message on stderr, never a signal; writing
/// subcommands finish their work and say so.
@Suite("tally output failures", .serialized)
struct OutputFailureTests {
    static let outputLostExitCode: Int32 = 3
    static let golden = RepositoryFiles.fixture("demo-readmodels.json").path
    static let bob = "00000002-0000-4000-8000-000000000002"

    /// Arguments that reach each subcommand's output, for a ledger holding the household;
    /// writing subcommands get fresh directories under `scratch`.
    static func argumentsReachingOutput(ledger: String, scratch: String) -> [String: [[String]]] {
        [
            "init": [["init", "--ledger", scratch + "/init", "--name", "H", "--admin-name", "Alice", "--recorded-at", "2026-01-01T00:00:00Z"]],
            "apply": [["apply", "--ledger", scratch + "/apply", TallyRunner.household]],
            "replay": [["replay", ledger]],
            "audit": [["audit", ledger], ["audit", "--json", ledger]],
            "log": [["log", ledger], ["log", "--json", ledger]],
            "stats": [["stats", ledger]],
            "balances": [["balances", ledger], ["balances", "--json", ledger]],
            "debts": [["debts", ledger]],
            "budget": [["budget", ledger, "--period", "2026-01-10"]],
            "networth": [["networth", ledger]],
            "flows": [["flows", ledger], ["flows", "--json", "--month", "2026-01", ledger]],
            "goals": [["goals", ledger, "--on", "2026-01-31"], ["goals", "--json", ledger]],
            "scenarios": [["scenarios", ledger, "--on", "2026-01-31"], ["scenarios", "--json", ledger]],
            "alerts": [["alerts", ledger, "--on", "2026-01-10"], ["alerts", "--json", ledger]],
            "analytics": [["analytics", ledger, "--month", "2026-01", "--categories"], ["analytics", "--json", "--by", "week", "--from", "2026-01-01", "--to", "2026-01-31", ledger]],
            "views": [["views", ledger], ["views", "--json", ledger]],
            "invitations": [["invitations", "--all", ledger], ["invitations", "--json", ledger]],
            "tax": [["tax", "--year", "2026", ledger], ["tax", "--json", "--year", "2026", ledger]],
            "health": [["health", ledger, "--on", "2026-03-01"], ["health", "--json", ledger, "--on", "2026-03-01"]],
            "export": [["export", "--format", "csv", ledger], ["export", "--format", "json", "--without-keys", ledger],
                       ["export", "--format", "ledger", ledger], ["export", "--format", "person", "--person", bob, ledger],
                       ["export", "--format", "csv", "--entity", "wallets", "--as", "Bob", ledger],
                       ["export", "--format", "csv", "--entity", "group", "--group", "Ski weekend", "--number-format", "swiss", ledger],
                       ["export", "--format", "csv", "--entity", "goals", "--on", "2026-03-01", ledger], ["export", "--format", "csv", "--entity", "budgets", ledger],
                       ["export", "--format", "csv", "--entity", "settlements", ledger], ["export", "--format", "csv", "--entity", "people", ledger],
                       ["export", "--format", "csv", "--entity", "groups", ledger], ["export", "--format", "csv", "--entity", "subscriptions", "--on", "2026-03-01", ledger]],
            "import": [["import", "csv", scratch + "/rows.csv", "--ledger", ledger, "--wallet", "Bob cash"],
                       ["import", "backup", scratch + "/backup.json", "--backup-key-file", scratch + "/backup.key", "--ledger", scratch + "/restored"]],
            "import-mapping": [["import-mapping", "save", "Bank", "--columns", "date=Datum", "--ledger", ledger, "--recorded-at", "2026-03-01T00:00:00Z"],
                               ["import-mapping", "list", ledger]],
            "diff": [["diff", ledger, ledger]],
            "verify": [["verify", ledger, "--expect", golden]],
            "demo": [["demo", "--ledger", scratch + "/demo"]],
            "repair": [["repair", ledger]],
            "rebuild": [["rebuild", ledger]],
            "transactions": [["transactions", ledger], ["transactions", "--json", ledger]],
            "settlements": [["settlements", ledger], ["settlements", "--json", ledger]],
            "people": [["people", ledger], ["people", "--json", "--sort", "activity-desc", ledger], ["people", "history", "--with", "Bob", "--of", "Alice", ledger],
                       ["people", "history", "--with", "Bob", "--as", "Alice", "--json", ledger], ["people", "expenses", "--person", "Bob", ledger],
                       ["people", "expenses", "--person", "Bob", "--json", ledger]],
            "investments": [["investments", ledger], ["investments", "--json", ledger]],
            "report": [["report", ledger], ["report", "--json", ledger], ["report", "--csv", ledger], ["report", "--by", "period", ledger]],
            "activity": [["activity", ledger], ["activity", "--json", ledger]],
            "search": [["search", "bob", ledger], ["search", "bob", "--json", ledger]],
            "statement": [["statement", "--wallet", "Joint account", ledger], ["statement", "--json", "--wallet", "Joint account", ledger]],
            "subscriptions": [["subscriptions", ledger, "--on", "2026-03-01"], ["subscriptions", "--json", ledger, "--on", "2026-03-01"],
                              ["subscriptions", ledger, "--calendar", "2026-03"], ["subscriptions", ledger, "--upcoming", "30", "--on", "2026-03-01"],
                              ["subscriptions", "post", ledger, "--through", "2026-03-31", "--recorded-at", "2026-04-01T08:00:00Z"]],
            "attachments": [["attachments", "list", "--transaction", "00000005-0000-4000-8000-000000000002", ledger],
                            ["attachments", "referenced", ledger],
                            ["attachments", "add", scratch + "/rows.csv", "--transaction", "00000005-0000-4000-8000-000000000002", "--ledger", ledger,
                             "--recorded-at", "2026-03-02T00:00:00Z"]],
            "reset": [["reset", scratch + "/reset", "--confirm", "DELETE"]],
            "sample": [["sample", "show", ledger], ["sample", "show", "--json", ledger], ["sample", "load", scratch + "/sampled"],
                       ["sample", "show", scratch + "/sampled"], ["sample", "clear", scratch + "/sampled", "--recorded-at", "2026-03-02T00:00:00Z"]],
            "suggest-category": [["suggest-category", "Migros weekly shop", ledger], ["suggest-category", "--json", "Coop", ledger]],
            "help": [["help"], ["--help"]],
        ]
    }

    /// `serve household`, `serve device` and `sync` against a running `tally serve`.
    static func serveArguments(_ server: ServeProcess, scratch: String) throws -> [String: [[String]]] {
        let (household, tokens) = try server.household(people: [ServeSyncCLITests.alice], in: scratch)
        return [
            "serve": [["serve", "household"] + server.postgres,
                      ["serve", "device"] + server.postgres + ["--household", household, "--person", ServeSyncCLITests.alice]],
            "sync": [["sync", "--ledger", scratch + "/synced", "--server", server.url, "--token-file", tokens[0],
                      "--push", try ServeSyncCLITests.aliceCommands(in: scratch)]],
        ]
    }

    @Test("every subcommand with stdout on /dev/full exits 3 with a stderr message naming ENOSPC, never a signal (class: a trap in output code)")
    func everySubcommandIntoFullDeviceExitsWithMessageNotSignal() throws {
        let ledger = try TallyRunner.householdLedger()
        let scratch = TallyRunner.temporaryDirectory()
        try "date,amount,note,category\n2026-02-20,-12.50,Bakery,Groceries\n".write(toFile: scratch + "/rows.csv", atomically: true, encoding: .utf8)
        let key = try TallyRunner.backupKeyFile(in: scratch)
        let backup = try TallyRunner.run(["export", ledger, "--format", "json", "--backup-key-file", key, "--output", scratch + "/backup.json"])
        #expect(backup.status == 0, "\(backup.stderr)")
        try FileManager.default.copyItem(atPath: ledger, toPath: scratch + "/reset")
        try FileManager.default.copyItem(atPath: ledger, toPath: scratch + "/sampled")
        let server = try ServeProcess.start()
        defer { server.stop() }
        let table = Self.argumentsReachingOutput(ledger: ledger, scratch: scratch)
            .merging(try Self.serveArguments(server, scratch: scratch)) { first, _ in first }
        let subcommands = TallyTool.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        for name in subcommands {
            let runs = try #require(table[name], "subcommand \(name) has no case here: add the arguments that reach its output")
            for arguments in runs {
                let result = try TallyRunner.runIntoFullDevice(arguments)
                let shown = arguments.joined(separator: " ")
                #expect(!result.signaled, "\(shown): killed by signal \(result.status)")
                #expect(result.status == Self.outputLostExitCode, "\(shown): exit \(result.status): \(result.stderr)")
                #expect(result.stderr.contains("tally: stdout: write failed: No space left on device (ENOSPC)"), "\(shown): \(result.stderr)")
            }
        }
        #expect(Set(table.keys) == Set(subcommands), "cases for subcommands that no longer exist")
    }

    @Test("writing subcommands with stdout on /dev/full finish their work and say so on stderr (class: output errors abort the work)")
    func writingSubcommandsIntoFullDeviceFinishTheWork() throws {
        let scratch = TallyRunner.temporaryDirectory()
        let created = try TallyRunner.runIntoFullDevice(
            ["init", "--ledger", scratch + "/init", "--name", "H", "--admin-name", "Alice", "--recorded-at", "2026-01-01T00:00:00Z"])
        #expect(created.status == Self.outputLostExitCode && created.stderr.contains("the ledger was created at \(scratch)/init"), "\(created.stderr)")
        let initLog = try TallyRunner.run(["log", "--json", scratch + "/init"])
        let events = initLog.stdout.split(separator: "\n")
        #expect(initLog.status == 0, "\(initLog.stderr)")
        #expect(events.count == 15, "householdCreated and the 14 default categories")
        #expect(events.first?.contains(#""sequenceNumber":1,"recordedAt":"2026-01-01T00:00:00.000Z","type":"householdCreated""#) == true)

        let demo = try TallyRunner.runIntoFullDevice(["demo", "--ledger", scratch + "/demo"])
        #expect(demo.status == Self.outputLostExitCode && demo.stderr.contains("the demo ledger was recorded at \(scratch)/demo"), "\(demo.stderr)")
        #expect(try TallyRunner.run(["audit", scratch + "/demo"]).status == 0)
    }

    @Test("apply with stdout on /dev/full applies all 76 commands, reports the lost output and exits 3 (class: output errors abort the work)")
    func applyIntoFullDeviceAppliesEveryCommand() throws {
        let ledger = TallyRunner.temporaryDirectory() + "/ledger"
        let result = try TallyRunner.runIntoFullDevice(["apply", "--ledger", ledger, TallyRunner.household])
        #expect(!result.signaled)
        #expect(result.status == Self.outputLostExitCode, "\(result.stderr)")
        #expect(result.stderr.contains("tally: stdout: write failed: No space left on device (ENOSPC) after 0 result lines; all 76 commands were applied; see `tally log --ledger \(ledger)`"), "\(result.stderr)")
        try Self.expectHousehold(in: ledger, extraTransactions: 0)
    }

    @Test("apply into a pipe closed after the first line applies every command and exits 3, not 141 (class: SIGPIPE kills the work)")
    func applyIntoClosedPipeAppliesEveryCommand() throws {
        let directory = TallyRunner.temporaryDirectory()
        let ledger = directory + "/ledger"
        let extra = 150
        let commands = try String(contentsOfFile: TallyRunner.household, encoding: .utf8) + Self.smallExpenses(extra)
        try commands.write(toFile: directory + "/commands.jsonl", atomically: true, encoding: .utf8)
        let result = try TallyRunner.runIntoPipeClosedAfterFirstLine(["apply", "--ledger", ledger, directory + "/commands.jsonl"])
        #expect(!result.signaled, "killed by signal \(result.status)")
        #expect(result.status == Self.outputLostExitCode, "\(result.stderr)")
        #expect(result.stdoutLines.first?.hasPrefix(#"{"line":1,"status":"ok""#) == true, "\(result.stdoutLines)")
        #expect(result.stderr.contains("tally: stdout: write failed: Broken pipe (EPIPE) after "), "\(result.stderr)")
        #expect(result.stderr.contains("; all \(76 + extra) commands were applied; see `tally log --ledger \(ledger)`"), "\(result.stderr)")
        try Self.expectHousehold(in: ledger, extraTransactions: extra)
    }

    @Test("a read-only subcommand into a closed pipe stops with exit 3 and a message, not SIGPIPE (class: SIGPIPE kills the process)")
    func logIntoClosedPipeExitsThree() throws {
        let ledger = try TallyRunner.householdLedger()
        let result = try TallyRunner.runIntoPipeClosedAfterFirstLine(["log", "--json", ledger])
        #expect(!result.signaled, "killed by signal \(result.status)")
        #expect(result.status == Self.outputLostExitCode, "\(result.stderr)")
        #expect(result.stderr == "tally: stdout: write failed: Broken pipe (EPIPE); the output is incomplete\n", "\(result.stderr)")
    }

    /// The ledger holds the household plus `extraTransactions` expenses of CHF 1.00 from the
    /// joint account, and audits clean.
    static func expectHousehold(in ledger: String, extraTransactions: Int) throws {
        let log = try TallyRunner.run(["log", "--json", ledger])
        #expect(log.status == 0, "\(log.stderr)")
        #expect(log.stdout.split(separator: "\n").count == 94 + extraTransactions)
        let balances = try TallyRunner.jsonObject(Substring(try TallyRunner.run(["balances", "--json", ledger]).stdout))
        let wallets = try #require(balances["wallets"] as? [[String: Any]])
        let joint = try #require(wallets.first { $0["name"] as? String == "Joint account" })
        #expect((joint["balance"] as? [String: Any])?["minorUnits"] as? Int == 1_496_855 - 100 * extraTransactions)
        #expect(try TallyRunner.run(["audit", ledger]).status == 0)
    }

    /// `count` recordTransaction commands: CHF 1.00 rent from the joint account, not shared.
    static func smallExpenses(_ count: Int) -> String {
        (1...count).map { index in
            let suffix = String(format: "%012x", 0xE000 + index)
            return #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-\#(suffix)", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-02-20T08:00:00.000Z", "transactionID": "00000005-0000-4000-8000-\#(suffix)", "kind": "expense", "amount": {"minorUnits": 100, "currency": "CHF"}, "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "00000004-0000-4000-8000-000000000001", "date": "2026-02-20", "payer": "00000002-0000-4000-8000-000000000001", "shared": false}"#
        }.joined(separator: "\n") + "\n"
    }
}
