import BenchmarkSupport
import Foundation
import GRDB
import SystemPackage
import Tally
import TallyJournal

/// The measurements that run in a child process (see `ChildRequest`).
enum ScaleChild {
    static func run(_ request: ChildRequest) async throws -> Figures {
        switch request.role {
        case .build: try await build(request)
        case .open: try await open(request)
        case .openStore: try openStore(request)
        case .verify: try verify(request)
        case .rebuildStore: try await rebuildStore(request)
        case .writes: try await writes(request)
        case .applyLibrary: try await applyLibrary(request)
        case .query: try await query(request)
        case .observation: try await observation(request)
        case .people: try await people(request)
        }
    }

    /// The setup and `commands` transactions in batches of 1000: the resident size after them
    /// ("RSS after N commands in one process"), then close (Tally writes its checkpoint).
    static func build(_ request: ChildRequest) async throws -> Figures {
        let subject = try await request.subject.open(in: request.directory)
        var workload = ScaleWorkload(seed: request.seed, phase: .build, plannedTransactions: request.commands)
        let start = Stopwatch.now()
        try await subject.execute(batch: workload.setup())
        var remaining = request.commands
        while remaining > 0 {
            let count = min(ScaleRun.batchCommands, remaining)
            try await subject.execute(batch: workload.next(count))
            remaining -= count
            let done = request.commands - remaining
            if done % 100_000 == 0 || remaining == 0 {
                ScaleRun.progress("  \(request.subject.title): \(done) commands, \(Int(Double(Stopwatch.now() - start) / 1e9)) s")
            }
        }
        let seconds = Double(Stopwatch.now() - start) / 1e9
        var figures: Figures = [
            "buildCommandsPerSecond": Double(request.commands) / seconds,
            "rssAfterCommandsMB": megabytes("VmRSS"),
            "buildPeakRSSMB": megabytes("VmHWM"),
        ]
        let closing = Stopwatch.now()
        try await subject.close()
        figures["closeMilliseconds"] = Double(Stopwatch.now() - closing) / 1e6
        return figures
    }

    /// Open and read every balance, timed together; peak RSS of this fresh process.
    static func open(_ request: ChildRequest) async throws -> Figures {
        let start = Stopwatch.now()
        let subject = try await request.subject.open(in: request.directory)
        let balances = try await subject.balances()
        let milliseconds = Double(Stopwatch.now() - start) / 1e6
        var figures: Figures = [
            "openMilliseconds": milliseconds,
            "openPeakRSSMB": megabytes("VmHWM"),
            "wallets": Double(balances.count),
            "balanceSum": Double(balances.reduce(Int64(0)) { $0 + $1.minorUnits }),
        ]
        if let tally = subject as? TallySubject {
            figures["events"] = Double(await tally.ledger.lastSequenceNumber)
            figures["eventsReplayedAtOpen"] = Double(tally.ledger.openReport.eventsReplayed)
        }
        try await subject.close()
        return figures
    }

    /// Tally: the balances from the read-side store alone, after checking it against the
    /// journal's end; peak RSS of this fresh process.
    static func openStore(_ request: ChildRequest) throws -> Figures {
        let start = Stopwatch.now()
        guard let store = try Ledger.currentStore(at: TallySubject.ledgerPath(in: request.directory)) else {
            throw ScaleError.storeNotCurrent(request.directory)
        }
        let balances = try store.walletBalances(visibleTo: .audit)
        return [
            "storeOpenMilliseconds": Double(Stopwatch.now() - start) / 1e6,
            "storeOpenPeakRSSMB": megabytes("VmHWM"),
            "storeBalanceSum": Double(balances.reduce(Int64(0)) { $0 + $1.balance.minorUnits }),
        ]
    }

    /// Tally: verify-only (the first phase of `tally audit`) in MB/s of journal, then a full
    /// rebuild of state and read models from the journal alone. The peer: `integrity_check`.
    static func verify(_ request: ChildRequest) throws -> Figures {
        switch request.subject {
        case .tally:
            let ledger = TallySubject.ledgerPath(in: request.directory)
            var verified: VerificationReport?
            let verifySeconds = try Stopwatch.seconds {
                verified = try JournalVerifier.verify(at: LedgerDirectory(ledger).journal)
            }
            guard let report = verified, report.isClean else { throw ScaleError.damaged("journal verification: \(verified?.problems.description ?? "no report")") }
            var events: UInt64 = 0
            let rebuildSeconds = try Stopwatch.seconds { events = try LedgerReplay.replay(at: ledger).lastSequenceNumber }
            return [
                "verifyMBPerSecond": Double(report.bytesVerified) / 1e6 / verifySeconds,
                "rebuildEventsPerSecond": Double(events) / rebuildSeconds,
                "rebuildPeakRSSMB": megabytes("VmHWM"),
            ]
        case .peer:
            let path = GRDBAppPeer.databasePath(in: request.directory)
            let queue = try DatabaseQueue(path: path)
            var result: [String] = []
            let seconds = try Stopwatch.seconds {
                result = try queue.read { database in try String.fetchAll(database, sql: "PRAGMA integrity_check") }
            }
            guard result == ["ok"] else { throw ScaleError.damaged("integrity_check: \(result)") }
            try queue.close()
            return ["verifyMBPerSecond": Double(DiskUsage.bytes(at: path)) / 1e6 / seconds]
        }
    }

    /// Tally: `tally rebuild` through the library: open the ledger, rebuild its read-side store
    /// from the journal alone (`Ledger.rebuildReadSide`), close. Peak RSS of the whole process.
    static func rebuildStore(_ request: ChildRequest) async throws -> Figures {
        let ledger = try await Ledger.open(at: TallySubject.ledgerPath(in: request.directory), options: LedgerOptions())
        let events = await ledger.lastSequenceNumber
        let start = Stopwatch.now()
        _ = try await ledger.rebuildReadSide()
        let seconds = Double(Stopwatch.now() - start) / 1e9
        try await ledger.close()
        return [
            "storeRebuildEventsPerSecond": Double(events) / seconds,
            "storeRebuildPeakRSSMB": megabytes("VmHWM"),
        ]
    }

    /// What `tally apply FILE` does, through the library: parse every line, then
    /// `Ledger.execute(each:)` over windows of `commandsPerBatchMax` commands (each command its
    /// own batch, a window's frames sharing one fdatasync) on a ledger with default options.
    /// The CLI reads ahead in smaller windows (`ApplyCommand.readAheadCommandsMax`).
    static func applyLibrary(_ request: ChildRequest) async throws -> Figures {
        guard let file = request.file, let data = FileManager.default.contents(atPath: file) else {
            throw ScaleError.damaged("cannot read the command file")
        }
        let start = Stopwatch.now()
        let lines = CommandParser.commandLines(in: Array(data))
        let commands = try lines.map { try CommandParser.parse(lineBytes: $0.bytes) }
        let subject = try await TallySubject.open(in: request.directory)
        let window = LedgerOptions().commandsPerBatchMax
        for first in stride(from: 0, to: commands.count, by: window) {
            let outcomes = try await subject.ledger.execute(each: Array(commands[first..<min(first + window, commands.count)]))
            for outcome in outcomes { _ = try outcome.get() }
        }
        try await subject.close()
        return ["applyCommandsPerSecond": Double(commands.count) / (Double(Stopwatch.now() - start) / 1e9)]
    }

    static func megabytes(_ field: String) -> Double {
        Double(ProcessMemory.bytes(field) ?? 0) / 1e6
    }
}

enum ScaleError: Error, CustomStringConvertible {
    case damaged(String)
    case child(String)
    case balancesDiffer(String)
    case storeNotCurrent(String)

    var description: String {
        switch self {
        case .damaged(let detail): "damaged: \(detail)"
        case .child(let detail): "child process failed: \(detail)"
        case .balancesDiffer(let detail): "Tally and the peer disagree on the balances: \(detail)"
        case .storeNotCurrent(let directory): "\(directory): the read-side store does not show the journal's end"
        }
    }
}
