import BenchmarkSupport
import Foundation
import Tally

extension ScaleChild {
    /// Issue 28, item 4: a new Tally ledger (default options, or without its read side when
    /// `keepsReadSide` is false) with `commands` people (Anna and Ben from the setup, the
    /// rest added by `addPerson` in batches of 1000, untimed), then `repetitions` single
    /// `addPerson` commands, each its own durable `execute` and each timed. Every one seals a
    /// new person's name, so every one writes a new personal key before its append (P2):
    /// what it costs should not grow with the people already there. Then raw 4 KiB append +
    /// fdatasync samples in the same directory, for the disk's speed at the time, and the key
    /// file's size.
    static func people(_ request: ChildRequest) async throws -> Figures {
        guard request.subject == .tally else { throw ScaleError.child("addPerson is measured on Tally only") }
        var options = LedgerOptions()
        options.keepsReadSide = request.keepsReadSide
        let subject = TallySubject(ledger: try await Ledger.open(at: TallySubject.ledgerPath(in: request.directory), options: options))
        var workload = ScaleWorkload(seed: request.seed, phase: .people)
        try await subject.execute(batch: workload.setup())
        var remaining = request.commands - 2  // Anna and Ben
        while remaining > 0 {
            let count = min(ScaleRun.batchCommands, remaining)
            try await subject.execute(batch: workload.people(count))
            remaining -= count
        }
        let timed = workload.people(request.repetitions)
        var latency = LatencySamples()
        let start = Stopwatch.now()
        for command in timed {
            let commandStart = Stopwatch.now()
            try await subject.execute(command)
            latency.record(since: commandStart)
        }
        let seconds = Double(Stopwatch.now() - start) / 1e9
        try await subject.close()
        let probe = try FdatasyncProbe(path: request.directory + "/fdatasync-probe")
        defer { probe.finish() }
        var syncLatency = LatencySamples()
        for _ in 0..<ScaleRun.peopleProbeSamples {
            let syncStart = Stopwatch.now()
            try probe.appendAndSync()
            syncLatency.record(since: syncStart)
        }
        let keyFile = LedgerDirectory(TallySubject.ledgerPath(in: request.directory)).personalKeys.string
        return [
            "peopleAddSeconds": seconds,
            "peopleAddP50Milliseconds": latency.percentileMilliseconds(0.5),
            "peopleAddP99Milliseconds": latency.percentileMilliseconds(0.99),
            "peopleFdatasyncP50Milliseconds": syncLatency.percentileMilliseconds(0.5),
            "keyFileBytes": Double(DiskUsage.bytes(at: keyFile)),
        ]
    }
}

extension ScaleRun {
    /// Raw fdatasync samples taken after the `addPerson` commands.
    static let peopleProbeSamples = 100

    /// Two `people` children: a new ledger with `count` people, then the timed `addPerson`
    /// commands, with default options and without the read side (the engine and its key file
    /// alone). The second's figures carry the prefix ``noReadSidePrefix``.
    func measurePeople(before count: Int) throws -> Figures {
        var figures: Figures = [:]
        for keepsReadSide in [true, false] {
            let directory = options.directory + "/people/\(count)-\(keepsReadSide ? "read-side" : "no-read-side")"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { if !options.keep { try? FileManager.default.removeItem(atPath: directory) } }
            Self.progress("people: \(options.peopleAdded) single addPerson into a ledger with \(count) people\(keepsReadSide ? "" : ", no read side")")
            var request = ChildRequest(role: .people, subject: .tally, directory: directory, seed: options.seed)
            request.commands = count
            request.repetitions = options.peopleAdded
            request.keepsReadSide = keepsReadSide
            for (key, value) in try ChildProcess.measure(request) { figures[(keepsReadSide ? "" : Self.noReadSidePrefix) + key] = value }
        }
        return figures
    }

    /// The prefix of the figures measured without the read side.
    static let noReadSidePrefix = "noReadSide."
}
