import BenchmarkSupport
import Foundation
import Tally

/// The coordinator: for each size, builds both subjects and runs every measurement in child
/// processes, in a fixed order (build, bytes, open, verify and audit, the issue-15 queries,
/// then the observation and the writes, which grow the ledgers), then the `tally apply` row once.
struct ScaleRun {
    static let batchCommands = 1000
    static let concurrentTasks = 64
    /// Commands `ScaleWorkload.setup()` issues before the transactions.
    static let setupCommands = 6

    let options: ScaleOptions
    /// Figures per size and subject.
    private(set) var results: [Int: [SubjectKind: Figures]] = [:]
    /// The apply row: commands/s, how it was measured, and the raw fdatasync p50 (ms) of the
    /// same directory right after it.
    private(set) var apply: (commandsPerSecond: Double, how: String, fdatasyncMilliseconds: Double)?
    /// Issue 28, item 4: figures per number of people before the timed `addPerson` commands.
    private(set) var people: [Int: Figures] = [:]
    let cliPath: String?

    init(options: ScaleOptions) {
        self.options = options
        let candidate = options.cliPath ?? (ChildProcess.selfPath() as NSString).deletingLastPathComponent + "/tally"
        cliPath = FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    mutating func run() throws {
        try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: options.directory) } }
        for size in options.sizes {
            results[size] = try measure(size: size)
        }
        if options.applyCommands > 0 { apply = try measureApply() }
        if options.peopleAdded > 0 {
            for count in options.peopleBefore { people[count] = try measurePeople(before: count) }
        }
    }

    func directory(size: Int, _ subject: SubjectKind) -> String {
        options.directory + "/\(size)/\(subject.rawValue)"
    }

    func request(_ role: ChildRequest.Role, _ subject: SubjectKind, size: Int) -> ChildRequest {
        ChildRequest(role: role, subject: subject, directory: directory(size: size, subject), seed: options.seed)
    }

    private func measure(size: Int) throws -> [SubjectKind: Figures] {
        var figures: [SubjectKind: Figures] = [.tally: [:], .peer: [:]]
        for subject in SubjectKind.allCases {
            Self.progress("\(size): building \(subject.title) (\(size) commands in batches of \(Self.batchCommands))")
            var build = request(.build, subject, size: size)
            build.commands = size
            figures[subject]?.merge(try ChildProcess.measure(build)) { $1 }
        }
        figures[.tally]?.merge(tallyBytes(size: size)) { $1 }
        figures[.peer]?.merge(peerBytes(size: size)) { $1 }

        Self.progress("\(size): open + read balances, \(options.openRuns) fresh processes each")
        var openRuns: [SubjectKind: [Figures]] = [:]
        for run in 0..<options.openRuns {
            for offset in SubjectKind.allCases.indices {
                let subject = SubjectKind.allCases[(run + offset) % SubjectKind.allCases.count]
                openRuns[subject, default: []].append(try ChildProcess.measure(request(.open, subject, size: size)))
            }
        }
        for (subject, runs) in openRuns {
            figures[subject]?["openMilliseconds"] = Self.median(runs.compactMap { $0["openMilliseconds"] })
            figures[subject]?["openPeakRSSMB"] = runs.compactMap { $0["openPeakRSSMB"] }.max()
            for key in ["wallets", "balanceSum", "events", "eventsReplayedAtOpen"] { figures[subject]?[key] = runs.last?[key] }
        }
        var storeRuns: [Figures] = []
        for _ in 0..<options.openRuns { storeRuns.append(try ChildProcess.measure(request(.openStore, .tally, size: size))) }
        figures[.tally]?["storeOpenMilliseconds"] = Self.median(storeRuns.compactMap { $0["storeOpenMilliseconds"] })
        figures[.tally]?["storeOpenPeakRSSMB"] = storeRuns.compactMap { $0["storeOpenPeakRSSMB"] }.max()
        guard storeRuns.last?["storeBalanceSum"] == figures[.tally]?["balanceSum"] else {
            throw ScaleError.balancesDiffer("the store's sum \(String(describing: storeRuns.last?["storeBalanceSum"])) differs from the engine's at \(size) commands")
        }
        let sums = SubjectKind.allCases.map { figures[$0]?["balanceSum"] }
        guard sums[0] != nil, sums[0] == sums[1], figures[.tally]?["wallets"] == figures[.peer]?["wallets"] else {
            throw ScaleError.balancesDiffer("sums \(sums) at \(size) commands")
        }

        Self.progress("\(size): verify-only, rebuild, integrity_check\(cliPath == nil ? "" : ", tally audit")")
        for subject in SubjectKind.allCases {
            figures[subject]?.merge(try ChildProcess.measure(request(.verify, subject, size: size))) { $1 }
        }
        if let cliPath {
            let ledger = TallySubject.ledgerPath(in: directory(size: size, .tally)).string
            let seconds = try Stopwatch.seconds { try ChildProcess.run(cliPath, ["audit", "--ledger", ledger], captureOutput: false) }
            let journalBytes = figures[.tally]?["journalBytes"] ?? 0
            figures[.tally]?["cliAuditMBPerSecond"] = journalBytes / 1e6 / seconds
        }

        var observedCommands = 0
        if options.queryRepetitions > 0 {
            try measureQueries(size: size, into: &figures)
            observedCommands = options.observedCommands
        }

        Self.progress("\(size): single commands, batches of \(Self.batchCommands), \(Self.concurrentTasks) concurrent tasks")
        for subject in SubjectKind.allCases {
            var writes = request(.writes, subject, size: size)
            writes.commands = Self.setupCommands + size + observedCommands
            writes.singleCommands = options.singleCommands
            writes.batches = options.batches
            writes.concurrentCommandsPerTask = options.concurrentCommandsPerTask
            figures[subject]?.merge(try ChildProcess.measure(writes)) { $1 }
        }
        // Last: it replaces the store the phases above measured (written commit by commit).
        Self.progress("\(size): store rebuild (`tally rebuild`)")
        figures[.tally]?.merge(try ChildProcess.measure(request(.rebuildStore, .tally, size: size))) { $1 }
        if !options.keep { try? FileManager.default.removeItem(atPath: options.directory + "/\(size)") }
        return figures
    }

    /// Journal, the read-side store (with the checkpoint and its history, and its WAL), and
    /// the rest of the ledger directory (the personal-key file).
    private func tallyBytes(size: Int) -> Figures {
        let layout = LedgerDirectory(TallySubject.ledgerPath(in: directory(size: size, .tally)))
        let journal = Double(DiskUsage.bytes(at: layout.journal.string))
        let store = Double(DiskUsage.bytes(at: layout.readSide.string))
        let total = Double(DiskUsage.bytes(at: layout.path.string))
        return ["journalBytes": journal, "storeBytes": store, "otherBytes": total - journal - store]
    }

    private func peerBytes(size: Int) -> Figures {
        let path = GRDBAppPeer.databasePath(in: directory(size: size, .peer))
        return [
            "databaseBytes": Double(DiskUsage.bytes(at: path)),
            "walBytes": Double(DiskUsage.bytes(at: path + "-wal")),
        ]
    }

    /// `tally apply` of a file of `applyCommands` lines (the setup, then transactions), one
    /// `execute` per line, into a new ledger; the library path when the CLI is not built.
    private func measureApply() throws -> (commandsPerSecond: Double, how: String, fdatasyncMilliseconds: Double) {
        let (rate, how) = try applyRate()
        let directory = options.directory + "/apply"
        let probe = try FdatasyncProbe(path: directory + "/fdatasync-probe")
        defer { probe.finish() }
        var samples = LatencySamples()
        for _ in 0..<Self.applyProbeSamples {
            let start = Stopwatch.now()
            try probe.appendAndSync()
            samples.record(since: start)
        }
        return (rate, how, samples.percentileMilliseconds(0.5))
    }

    /// Raw fdatasync samples taken after the apply row, to tell the disk's speed at the time.
    static let applyProbeSamples = 200

    private func applyRate() throws -> (commandsPerSecond: Double, how: String) {
        let directory = options.directory + "/apply"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/commands.jsonl"
        Self.progress("apply: writing \(options.applyCommands) command lines")
        try Self.writeCommandFile(at: file, lines: options.applyCommands, seed: options.seed)
        let ledger = TallySubject.ledgerPath(in: directory).string
        if let cliPath {
            Self.progress("apply: tally apply (each line its own batch, read ahead so several share one fdatasync)")
            let seconds = try Stopwatch.seconds {
                try ChildProcess.run(cliPath, ["apply", "--ledger", ledger, file], captureOutput: false)
            }
            return (Double(options.applyCommands) / seconds, "`tally apply --ledger DIR FILE` (release CLI), output discarded")
        }
        Self.progress("apply: no tally binary; parse + Ledger.execute(each:) through the library")
        var request = ChildRequest(role: .applyLibrary, subject: .tally, directory: directory, seed: options.seed)
        request.file = file
        let figures = try ChildProcess.measure(request)
        return (figures["applyCommandsPerSecond"] ?? .nan, "library: `CommandParser.parse(lineBytes:)` + `Ledger.execute(each:)` in windows of `commandsPerBatchMax`, each line its own batch (CLI not built)")
    }

    static func writeCommandFile(at path: String, lines: Int, seed: UInt64) throws {
        var workload = ScaleWorkload(seed: seed, phase: .apply, plannedTransactions: max(1, lines - setupCommands))
        let setup = workload.setup()
        var text = ""
        text.reserveCapacity(lines * 420)
        for command in setup.prefix(lines) + workload.next(max(0, lines - setup.count)) {
            text += command.jsonLine
            text += "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func progress(_ message: String) {
        FileHandle.standardError.write(Data("tally-scale: \(message)\n".utf8))
    }
}
