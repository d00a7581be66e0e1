import Foundation
import SystemPackage
import TallyJournal
import Testing

/// Issue 29 item 1: a reader never takes the writer lock, so an app's widget or a second
/// process reading the ledger never stops the app from writing, and reads while it writes.
@Suite("CLI readers beside a writer (issue 29)")
struct ReadersBesideWriterCLITests {
    /// The subcommands that change the ledger (they take the writer lock).
    /// `sync` writes what it pulls; `serve` writes its ledger caches (and no ledger of the user's).
    static let writers: Set<String> = ["init", "apply", "import", "demo", "rebuild", "reset", "sync", "serve"]

    /// Every subcommand that only reads, by name, with arguments that make it read `ledger`
    /// (`import-mapping`, `subscriptions`, `sample` and `repair` read in these forms and write in others).
    static func readers(_ ledger: String, golden: String, wallet: String) -> [String: [String]] {
        [
            "replay": ["replay", "--ledger", ledger],
            "audit": ["audit", "--ledger", ledger],
            "log": ["log", "--ledger", ledger],
            "stats": ["stats", "--ledger", ledger],
            "balances": ["balances", "--ledger", ledger],
            "debts": ["debts", "--ledger", ledger],
            "budget": ["budget", "--ledger", ledger],
            "networth": ["networth", "--ledger", ledger],
            "flows": ["flows", "--ledger", ledger],
            "goals": ["goals", "--ledger", ledger],
            "scenarios": ["scenarios", "--ledger", ledger],
            "alerts": ["alerts", "--ledger", ledger],
            "analytics": ["analytics", "--ledger", ledger, "--from", "2026-01-01", "--to", "2026-12-31"],
            "views": ["views", "--ledger", ledger],
            "invitations": ["invitations", "--ledger", ledger],
            "tax": ["tax", "--ledger", ledger, "--year", "2026"],
            "health": ["health", "--ledger", ledger, "--on", "2026-03-01"],
            "export": ["export", "--ledger", ledger, "--format", "csv"],
            "import-mapping": ["import-mapping", "list", "--ledger", ledger],
            "diff": ["diff", ledger, ledger],
            "verify": ["verify", "--ledger", ledger, "--expect", golden],
            "repair": ["repair", "--ledger", ledger],
            "transactions": ["transactions", "--ledger", ledger],
            "settlements": ["settlements", "--ledger", ledger],
            "people": ["people", "history", "--with", "Bob", "--of", "Alice", "--ledger", ledger],
            "investments": ["investments", "--ledger", ledger],
            "report": ["report", "--ledger", ledger, "--by", "period"],
            "statement": ["statement", "--ledger", ledger, "--wallet", wallet],
            "activity": ["activity", "--ledger", ledger],
            "search": ["search", "bob", "--ledger", ledger],
            "subscriptions": ["subscriptions", "list", "--ledger", ledger],
            "attachments": ["attachments", "list", "--transaction", "00000005-0000-4000-8000-000000000002", "--ledger", ledger],
            "suggest-category": ["suggest-category", "Coop", "--ledger", ledger],
            "sample": ["sample", "show", "--ledger", ledger],
        ]
    }

    /// The subcommand names `tally --help` lists.
    static func subcommands() throws -> Set<String> {
        let help = try TallyRunner.run(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:").last)
        return Set(section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return name == name.lowercased() ? String(name) : nil  // not the closing "See 'tally help ...'"
        })
    }

    /// Holds the ledger's writer locks (the folder and its journal), as a running writer does.
    static func holdingWriterLocks<Value>(_ ledger: String, _ body: () throws -> Value) throws -> Value {
        let folder = try PosixFileSystem().lockExclusively(at: FilePath(ledger))
        defer { folder.unlock() }
        let journal = try Journal.lockWriter(at: FilePath(ledger).appending("journal"))
        defer { journal.unlock() }
        return try body()
    }

    static func firstWallet(_ ledger: String) throws -> String {
        let balances = try TallyRunner.run(["balances", "--json", "--ledger", ledger])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(balances.stdout.utf8)) as? [String: Any])
        let wallets = try #require(object["wallets"] as? [[String: Any]])
        return try #require(wallets.first?["name"] as? String)
    }

    @Test("I29.1: every subcommand that does not write answers (exit 0) while a writer holds the ledger's locks: none takes the lock; the list covers every reading subcommand `tally --help` names")
    func everyReaderRunsBesideAWriter() throws {
        let ledger = try TallyRunner.householdLedger()
        let golden = TallyRunner.temporaryDirectory() + "/golden.json"
        try TallyRunner.run(["replay", "--ledger", ledger]).stdout.write(toFile: golden, atomically: true, encoding: .utf8)
        let readers = Self.readers(ledger, golden: golden, wallet: try Self.firstWallet(ledger))
        let named = try Self.subcommands()
        #expect(named.count > 20, "\(named)")
        #expect(named.subtracting(Self.writers) == Set(readers.keys), "a new subcommand is a reader or a writer: add it here")
        try Self.holdingWriterLocks(ledger) {
            for (name, arguments) in readers.sorted(by: { $0.key < $1.key }) {
                let result = try TallyRunner.run(arguments)
                #expect(result.status == 0, "\(name): \(result.stderr)")
                #expect(!result.stderr.contains("journalLocked"), "\(name) took the writer lock: \(result.stderr)")
            }
        }
        // The writers do take it.
        try Self.holdingWriterLocks(ledger) {
            let apply = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: "")
            #expect(apply.status == 2 && apply.stderr.contains("journalLocked"), "\(apply.stderr)")
        }
    }

    @Test("I29.1: a store behind the journal (a writer beside the reader has not committed it yet) is read as far as it covers, stderr says how far; the writer's next open catches it up and the note goes")
    func aStoreBehindTheJournalIsServedAsFarAsItCovers() throws {
        let ledger = try TallyRunner.householdLedger()
        let before = try QueryCLITests.allRows(ledger, ["--limit", "1000"])
        let stats = try TallyRunner.run(["transactions", "--json", "--ledger", ledger])
        #expect(stats.status == 0 && !stats.stderr.contains("covers the journal"), "a current store has no note: \(stats.stderr)")
        let aside = TallyRunner.temporaryDirectory() + "/read-side"
        try FileManager.default.copyItem(atPath: ledger + "/read-side", toPath: aside)
        let wallet = try Self.firstWallet(ledger)
        let more = #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-0000000009f1", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-12-01T10:00:00.000Z", "transactionID": "00000005-0000-4000-8000-0000000009f1", "kind": "expense", "amount": {"minorUnits": 4200, "currency": "CHF"}, "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "00000004-0000-4000-8000-000000000001", "date": "2026-02-28", "payer": "00000002-0000-4000-8000-000000000001"}"#
        let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: more + "\n")
        let journalEnd = try #require(try Self.lastSequence(ledger))
        // The store as a writer that has not committed the last batch yet leaves it.
        try FileManager.default.removeItem(atPath: ledger + "/read-side")
        try FileManager.default.copyItem(atPath: aside, toPath: ledger + "/read-side")
        try Self.holdingWriterLocks(ledger) {
            let page = try TallyRunner.run(["transactions", "--json", "--limit", "1000", "--ledger", ledger])
            #expect(page.status == 0, "\(page.stderr)")
            #expect(page.stderr.contains("covers the journal through sequence") && page.stderr.contains("of \(journalEnd)"), "\(page.stderr)")
            let rows = try #require((try JSONSerialization.jsonObject(with: Data(page.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
            #expect(rows.count == before.count, "the rows the store covers")
            let statement = try TallyRunner.run(["statement", "--json", "--wallet", wallet, "--ledger", ledger])
            #expect(statement.status == 0 && statement.stderr.contains("covers the journal"), "\(statement.stderr)")
        }
        #expect(applied.status == 0, "\(applied.stderr)\(applied.stdout)")
        // A writer's open catches the store up.
        #expect(try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: "").status == 0)
        let after = try TallyRunner.run(["transactions", "--json", "--limit", "1000", "--ledger", ledger])
        #expect(after.status == 0 && !after.stderr.contains("covers the journal"), "\(after.stderr)")
        let rows = try #require((try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(rows.count == before.count + 1)
    }

    @Test("I29.1: while `apply` writes 3,000 commands, statement, transactions, report, activity and balances run in a loop beside it: every run exits 0, none is journalLocked, and the writer applies every command")
    func readersLoopBesideARunningApply() throws {
        let ledger = try TallyRunner.householdLedger()
        let wallet = try Self.firstWallet(ledger)
        let lines = (1...3_000).map { index in
            let id = String(format: "%012x", 0x9000 + index)
            return #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-\#(id)", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-12-01T10:00:00.000Z", "transactionID": "00000005-0000-4000-8000-\#(id)", "kind": "expense", "amount": {"minorUnits": \#(100 + index), "currency": "CHF"}, "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "00000004-0000-4000-8000-000000000001", "date": "2026-02-28", "payer": "00000002-0000-4000-8000-000000000001"}"#
        }
        let commands = TallyRunner.temporaryDirectory() + "/commands.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: commands, atomically: true, encoding: .utf8)
        let writer = Process()
        writer.executableURL = try TallyRunner.executable()
        writer.arguments = ["apply", "--ledger", ledger, commands]
        writer.standardOutput = FileHandle.nullDevice
        let writerErrors = Pipe()
        writer.standardError = writerErrors
        try writer.run()
        let readers = [
            ["statement", "--wallet", wallet, "--limit", "5"], ["transactions", "--limit", "5"], ["report"],
            ["activity", "--limit", "5"], ["balances"],
        ]
        var runs = 0
        var besideTheWriter = 0
        while writer.isRunning || runs < readers.count {
            let arguments = readers[runs % readers.count]
            let result = try TallyRunner.run(arguments + ["--ledger", ledger])
            if writer.isRunning { besideTheWriter += 1 }
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            #expect(!result.stderr.contains("journalLocked"), "\(arguments[0]): \(result.stderr)")
            runs += 1
        }
        writer.waitUntilExit()
        let errors = String(decoding: writerErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(writer.terminationStatus == 0, "\(errors)")
        #expect(besideTheWriter > 0, "at least one read ran while the writer did")
        let all = try QueryCLITests.allRows(ledger, ["--limit", "1000", "--month", "2026-02"])
        let written = all.compactMap { ($0["transactionID"] as? String).flatMap { Int($0.suffix(12), radix: 16) } }.filter { $0 > 0x9000 }
        #expect(written.count == 3_000, "every command the writer was given is in the store")
    }

    @Test("I29.1: one-command applies (transactions and new people) while `audit` and `repair` (plan) loop beside them: every apply exits 0 (no reader's open or close of the archive or store refuses the writer: SQLite waits for a lock another process holds), and no audit reports the store ahead of, or different from, a journal that a writer is extending")
    func auditAndRepairNeverRefuseAWriter() throws {
        let ledger = try TallyRunner.householdLedger()
        let loopState = ReaderLoop()
        let loop = Thread {
            var index = 0
            while !loopState.isDone {
                let arguments = index % 2 == 0 ? ["audit", "--ledger", ledger] : ["repair", "--ledger", ledger]
                index += 1
                guard let result = try? TallyRunner.run(arguments) else { continue }
                loopState.record(result.status == 0 ? nil : "\(arguments[0]) exited \(result.status): \(result.stdout.suffix(400)) \(result.stderr)")
            }
            loopState.finish()
        }
        loop.start()
        for index in 1...30 {
            let id = String(format: "%012x", 0xA000 + index)
            // Every other command adds a person: a new personal key the audit beside it must read.
            let line = index.isMultiple(of: 2)
                ? #"{"command": "addPerson", "commandID": "0000000c-0000-4000-8000-\#(id)", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-12-01T10:00:00.000Z", "personID": "00000002-0000-4000-8000-\#(id)", "name": "Contact \#(index)"}"#
                : #"{"command": "recordTransaction", "commandID": "0000000c-0000-4000-8000-\#(id)", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-12-01T10:00:00.000Z", "transactionID": "00000005-0000-4000-8000-\#(id)", "kind": "expense", "amount": {"minorUnits": 500, "currency": "CHF"}, "walletID": "00000003-0000-4000-8000-000000000001", "categoryID": "00000004-0000-4000-8000-000000000001", "date": "2026-02-28", "payer": "00000002-0000-4000-8000-000000000001"}"#
            let applied = try TallyRunner.run(["apply", "--ledger", ledger, "-"], stdin: line + "\n")
            #expect(applied.status == 0 && applied.stdout.contains("\"ok\""), "apply \(index): \(applied.stderr)")
        }
        loopState.stop()
        #expect(loopState.runs > 2, "the readers ran beside the writer")
        #expect(loopState.failures.isEmpty, "\(loopState.failures)")
    }

    /// The journal's last sequence number, as `tally stats --json` says it.
    static func lastSequence(_ ledger: String) throws -> Int? {
        let stats = try TallyRunner.run(["stats", "--json", "--ledger", ledger])
        let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        return object?["lastSequenceNumber"] as? Int
    }
}

/// The reader loop of ``ReadersBesideWriterCLITests/auditAndRepairNeverRefuseAWriter()``: its
/// runs and failures, and the signal to stop (waited for until the loop finished).
private final class ReaderLoop: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false
    private var finished = false
    private var outcomes: [String?] = []

    var isDone: Bool { condition.withLock { done } }
    var runs: Int { condition.withLock { outcomes.count } }
    var failures: [String] { condition.withLock { outcomes.compactMap { $0 } } }

    func record(_ failure: String?) { condition.withLock { outcomes.append(failure) } }

    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// Asks the loop to stop and waits until it has.
    func stop() {
        condition.withLock {
            done = true
            while !finished { condition.wait() }
        }
    }
}
