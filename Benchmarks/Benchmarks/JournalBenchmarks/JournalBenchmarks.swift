import Benchmark
import Foundation
import SystemPackage
import TallyJournal

/// Journal benchmarks: append under each durability policy and batch size, read/replay, and
/// verification. Throughput = `scalingFactor` events per iteration.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5), maxIterations: 100_000)
    registerGeneratedEventBenchmarks()

    for (label, durability) in [("synchronous", DurabilityPolicy.synchronous), ("none", .none)] {
        for batchSize in [1, 100, 1000] {
            // `.hundred` does not exist in ordo-one/benchmark 1.38; with `.kilo` an iteration
            // appends 1000 records in batches of `batchSize`, so throughput stays records/s.
            let scaling: BenchmarkScalingFactor = batchSize == 1 ? .one : .kilo
            Benchmark(
                "Journal append, batch \(batchSize), \(label)",
                configuration: .init(scalingFactor: scaling)
            ) { benchmark, state in
                for _ in 0..<max(1, benchmark.scaledIterations.count / batchSize) {
                    try await state.journal.append(state.batch)
                }
            } setup: {
                try AppendState(durability: durability, batchSize: batchSize)
            } teardown: {
                removeBenchmarkDirectories()
            }
        }
    }

    Benchmark("Journal append, 64 concurrent tasks, batch 1, synchronous", configuration: .init(scalingFactor: .kilo)) { benchmark, state in
        let journal = state.journal
        let batch = state.batch
        let appendsPerTask = benchmark.scaledIterations.count / 64
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    for _ in 0..<appendsPerTask { _ = try? await journal.append(batch) }
                }
            }
        }
    } setup: {
        try AppendState(durability: .synchronous, batchSize: 1)
    } teardown: {
        removeBenchmarkDirectories()
    }

    Benchmark("Journal read 1M records (batches of 1000)", configuration: .init(scalingFactor: .mega, maxIterations: 20)) { benchmark, state in
        var count = 0
        try state.reader.forEachRecord { record in
            count &+= record.payload.count
            return true
        }
        blackHole(count)
    } setup: {
        try await ReadState.make(records: 1_000_000)
    } teardown: {
        removeBenchmarkDirectories()
    }

    // Opening for writing checks every frame of every sealed segment (header, CRC32C,
    // sequence) so that a writer never extends a journal that cannot be replayed (issue 13 A4):
    // open time grows with the journal's bytes. Segments of 4 MiB make most of it sealed.
    Benchmark("Journal open for writing, 1M records in 4 MiB segments (sealed frames CRC-checked)", configuration: .init(scalingFactor: .mega, maxIterations: 20)) { _, state in
        var options = JournalOptions(durability: .none)
        options.segmentBytesMax = 4 << 20
        let journal = try Journal.open(at: state.path, options: options)
        blackHole(journal.lastSequenceNumber)
        try journal.close()
    } setup: {
        try await ReadState.make(records: 1_000_000, segmentBytesMax: 4 << 20)
    } teardown: {
        removeBenchmarkDirectories()
    }

    Benchmark("Journal verify 1M records (chain + CRC + decode)", configuration: .init(scalingFactor: .mega, maxIterations: 20)) { _, state in
        let report = try JournalVerifier.verify(at: state.path)
        precondition(report.isClean)
        blackHole(report.bytesVerified)
    } setup: {
        try await ReadState.make(records: 1_000_000)
    } teardown: {
        removeBenchmarkDirectories()
    }
}

/// ~100-byte records shaped like encoded events.
func sampleRecords(_ count: Int, offset: Int = 0) -> [NewRecord] {
    (0..<count).map { index in
        var payload = Array("expense CHF groceries Migros \(offset + index) note:".utf8)
        payload += (0..<(40 + index % 30)).map { UInt8(truncatingIfNeeded: ($0 &* 7) ^ (offset + index)) }
        return NewRecord(
            recordedAtMilliseconds: 1_767_261_600_000 + Int64(offset + index) * 1000,
            typeTag: UInt32(400 + index % 5), schemaVersion: 1, payload: payload)
    }
}

final class AppendState: @unchecked Sendable {  // read-only after setup
    let directory: String
    let journal: Journal
    let batch: [NewRecord]

    init(durability: DurabilityPolicy, batchSize: Int, encryption: JournalEncryption? = nil) throws {
        directory = benchmarkDirectory()
        var options = JournalOptions(durability: durability)
        options.encryption = encryption
        journal = try Journal.open(at: FilePath(directory), options: options)
        batch = sampleRecords(batchSize)
    }

    func remove() {
        try? journal.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct ReadState: Sendable {
    let directory: String
    let reader: JournalReader
    var path: FilePath { FilePath(directory) }

    static func make(records: Int, segmentBytesMax: Int64 = JournalOptions().segmentBytesMax) async throws -> ReadState {
        let directory = benchmarkDirectory()
        var options = JournalOptions(durability: .none)
        options.segmentBytesMax = segmentBytesMax
        let journal = try Journal.open(at: FilePath(directory), options: options)
        for start in stride(from: 0, to: records, by: 1000) {
            try await journal.append(sampleRecords(1000, offset: start))
        }
        try journal.close()
        return ReadState(directory: directory, reader: try JournalReader.open(at: FilePath(directory)))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Every journal a benchmark creates lives under one directory per process; ordo-one's
/// `teardown` gets no access to the setup state, so it removes this whole directory.
let benchmarkRoot = NSTemporaryDirectory() + "tally-bench-\(getpid())"

/// A fresh, not yet existing journal directory under `benchmarkRoot`.
func benchmarkDirectory() -> String {
    try? FileManager.default.createDirectory(atPath: benchmarkRoot, withIntermediateDirectories: true)
    return benchmarkRoot + "/" + UUID().uuidString
}

/// Removes every journal created by this process's benchmarks.
func removeBenchmarkDirectories() {
    try? FileManager.default.removeItem(atPath: benchmarkRoot)
}
