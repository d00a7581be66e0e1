import BenchmarkSupport
import Foundation
import SystemPackage
import TallyJournal
import TallyWorkload

/// Runs every measurement on the same generated events and collects the table.
@MainActor
struct Comparison {
    let options: CompareOptions
    var table = ResultTable()
    var rawSync = LatencySamples()
    var figures: [String: Double] = [:]

    init(options: CompareOptions) {
        self.options = options
    }

    mutating func run() async throws {
        try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: options.directory) } }
        let memory = try await measureStreamingRead()
        try await measureBulk()
        try await measureBulkWithoutSync()
        try await measureSingle()
        try await measureConcurrent()
        table.measurements.append(memory)
        table.measurements += try await measureEngine()
    }

    func path(_ name: String) -> String { options.directory + "/" + name }

    static func progress(_ message: String) {
        FileHandle.standardError.write(Data("tally-compare: \(message)\n".utf8))
    }

    /// Batches of 1000: durable append throughput, bytes per event, read + decode, verify.
    mutating func measureBulk() async throws {
        Self.progress("appending \(options.events) events in batches of 1000 to each store")
        let peers: [any StoragePeer] = [
            try TallyPeer(directory: path("bulk-tally")),
            try SQLitePeer(path: path("bulk-json.sqlite"), payload: .json),
            try SQLitePeer(path: path("bulk-binary.sqlite"), payload: .binary),
            try JSONLinesPeer(path: path("bulk.jsonl")),
        ]
        var batchLatency = [String: LatencySamples]()
        for (index, events) in HouseholdHistory(count: options.events, seed: options.seed).batches(of: 1000).enumerated() {
            let batch = PreparedBatch(events)
            // Rotate who goes first so that no store always meets a cold cache.
            for offset in peers.indices {
                let peer = peers[(index + offset) % peers.count]
                let start = Stopwatch.now()
                try await peer.append(batch)
                batchLatency[peer.name, default: LatencySamples()].record(since: start)
            }
        }
        var batchP50 = Measurement(label: "Durable append of one 1000-event batch, p50 (ms)", higherIsBetter: false, format: .milliseconds)
        var append = Measurement(label: "Durable append, batches of 1000 (events/s)", higherIsBetter: true, format: .count)
        var bytes = Measurement(label: "Bytes on disk per event", higherIsBetter: false, format: .bytes)
        var read = Measurement(label: "Full read + decode (events/s)", higherIsBetter: true, format: .count)
        var verify = Measurement(label: "Verify (MB/s): JournalVerifier vs PRAGMA integrity_check", higherIsBetter: true, format: .count)
        for peer in peers {
            try peer.finishWriting()
            let latency = batchLatency[peer.name, default: LatencySamples()]
            append.values[peer.name] = Double(options.events) / latency.totalSeconds
            batchP50.values[peer.name] = latency.percentileMilliseconds(0.5)
            bytes.values[peer.name] = Double(peer.diskBytes()) / Double(options.events)
            Self.progress("reading back \(peer.name)")
            var count = 0
            let readSeconds = try Stopwatch.seconds { count = try peer.scanAndDecode() }
            precondition(count == options.events, "\(peer.name) read \(count) of \(options.events) events")
            read.values[peer.name] = Double(count) / readSeconds
            var checked: Int64?
            let verifySeconds = try Stopwatch.seconds { checked = try peer.verify() }
            if let checked { verify.values[peer.name] = Double(checked) / 1e6 / verifySeconds }
        }
        var scan = Measurement(label: "Full read, no decode (events/s)", higherIsBetter: true, format: .count)
        let scanSeconds = try Stopwatch.seconds { _ = try TallyPeer.scan(path("bulk-tally"), decode: false) }
        scan.values["Tally"] = Double(options.events) / scanSeconds
        table.measurements += [append, batchP50, bytes, read, scan, verify]
    }

    /// Batches of 1: each store gets the same events one by one, interleaved with a raw
    /// 4 KiB append + fdatasync, so all see the same disk at the same moments.
    mutating func measureSingle() async throws {
        Self.progress("appending \(options.singleEvents) single events to each store, with raw fdatasync")
        let peers: [any StoragePeer] = [
            try TallyPeer(directory: path("single-tally")),
            try SQLitePeer(path: path("single-json.sqlite"), payload: .json),
            try SQLitePeer(path: path("single-binary.sqlite"), payload: .binary),
            try JSONLinesPeer(path: path("single.jsonl")),
        ]
        let probe = try RawSyncProbe(path: path("raw-fdatasync.bin"))
        var samples = [String: LatencySamples]()
        for (index, event) in HouseholdHistory(count: options.singleEvents, seed: options.seed).enumerated() {
            let batch = PreparedBatch([event])
            let start = Stopwatch.now()
            try probe.appendAndSync()
            rawSync.record(since: start)
            for offset in peers.indices {
                let peer = peers[(index + offset) % peers.count]
                let start = Stopwatch.now()
                try await peer.append(batch)
                samples[peer.name, default: LatencySamples()].record(since: start)
            }
        }
        var throughput = Measurement(label: "Durable append, batches of 1 (events/s)", higherIsBetter: true, format: .count)
        var p50 = Measurement(label: "Single-event durable append p50 (ms)", higherIsBetter: false, format: .milliseconds)
        var p99 = Measurement(label: "Single-event durable append p99 (ms)", higherIsBetter: false, format: .milliseconds)
        for peer in peers {
            try peer.finishWriting()
            let latency = samples[peer.name, default: LatencySamples()]
            throughput.values[peer.name] = Double(options.singleEvents) / latency.totalSeconds
            p50.values[peer.name] = latency.percentileMilliseconds(0.50)
            p99.values[peer.name] = latency.percentileMilliseconds(0.99)
        }
        table.measurements += [throughput, p50, p99]
    }

    /// 64 tasks appending single events to one journal at once (group commit).
    mutating func measureConcurrent() async throws {
        let tasks = 64
        let perTask = options.concurrentEvents / tasks
        Self.progress("64 tasks appending \(perTask) single events each to Tally")
        let records = Array(HouseholdHistory(count: perTask * tasks, seed: options.seed).records)
        let journal = try Journal.open(at: FilePath(path("concurrent-tally")))
        let seconds = try await Self.appendConcurrently(records, tasks: tasks, to: journal)
        try journal.close()
        var concurrent = Measurement(label: "64 tasks, single-event appends (events/s)", higherIsBetter: true, format: .count)
        concurrent.values["Tally"] = Double(perTask * tasks) / seconds
        table.measurements.append(concurrent)
    }

    /// Appends `records` one per `append` from `tasks` child tasks; returns the seconds taken.
    /// Nonisolated on purpose: child tasks made on the main actor would inherit its isolation
    /// and run one at a time, measuring the main actor instead of the journal.
    nonisolated static func appendConcurrently(_ records: [NewRecord], tasks: Int, to journal: Journal) async throws -> Double {
        let perTask = records.count / tasks
        let start = Stopwatch.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                let mine = Array(records[(task * perTask)..<((task + 1) * perTask)])
                group.addTask { @Sendable in
                    for record in mine { try await journal.append([record]) }
                }
            }
            try await group.waitForAll()
        }
        return Double(Stopwatch.now() - start) / 1e9
    }

    /// Tally with `.none` durability: what the journal's CPU path allows without fdatasync.
    mutating func measureBulkWithoutSync() async throws {
        Self.progress("appending \(options.events) events in batches of 1000 to Tally without fdatasync (CPU ceiling)")
        let peer = try TallyPeer(directory: path("bulk-tally-nosync"), durability: .none)
        var seconds = 0.0
        for events in HouseholdHistory(count: options.events, seed: options.seed).batches(of: 1000) {
            let batch = PreparedBatch(events)
            let start = Stopwatch.now()
            try await peer.append(batch)
            seconds += Double(Stopwatch.now() - start) / 1e9
        }
        try peer.finishWriting()
        var measurement = Measurement(label: "Append, batches of 1000, no fdatasync (events/s, CPU ceiling)", higherIsBetter: true, format: .count)
        measurement.values["Tally"] = Double(options.events) / seconds
        table.measurements.append(measurement)
    }

    /// Peak extra resident memory while streaming (read + decode) the largest journal, built
    /// first from the streaming generator with `.none` durability.
    mutating func measureStreamingRead() async throws -> Measurement {
        let count = options.memoryEvents ?? options.events
        Self.progress("building a \(count)-event journal for the streaming-read memory test")
        let directory = path("memory-tally")
        let journal = try Journal.open(at: FilePath(directory), options: JournalOptions(durability: .none))
        for events in HouseholdHistory(count: count, seed: options.seed).batches(of: 1000) {
            try await journal.append(events.map(EncodedHistory.record))
        }
        try journal.close()
        Self.progress("streaming read + decode of \(count) events")
        let resetWorked = ProcessMemory.resetPeak()
        let before = ProcessMemory.bytes("VmRSS") ?? 0
        var read = 0
        let seconds = try Stopwatch.seconds { read = try TallyPeer.scan(directory, decode: true) }
        precondition(read == count)
        let peak = ProcessMemory.bytes("VmHWM") ?? 0
        figures["memoryEvents"] = Double(count)
        figures["memoryReadPerSecond"] = Double(count) / seconds
        figures["memoryJournalBytes"] = Double(DiskUsage.bytes(at: directory))
        try FileManager.default.removeItem(atPath: directory)
        var measurement = Measurement(
            label: "Streaming read + decode of \(NumberStyle.grouped(Double(count))) events: peak extra RSS (MB)\(resetWorked ? "" : " (VmHWM not reset)")",
            higherIsBetter: false, format: .megabytes)
        measurement.values["Tally"] = Double(peak - before) / 1e6
        return measurement
    }
}
