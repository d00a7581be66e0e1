import Benchmark
import Foundation
import SystemPackage
import TallyJournal
import TallyModel
import TallyWorkload

/// Journal benchmarks on realistic events from `TallyWorkload` (the synthetic `sampleRecords`
/// above are byte soup that compresses differently): encode + append of 1000-event batches, and
/// read + decode back to `Event`s; each with and without encryption at rest
/// (`JournalOptions.encryption`, AES-256-GCM per frame).
func registerGeneratedEventBenchmarks() {
    let history = Array(HouseholdHistory(count: 100_000))
    let batches = stride(from: 0, to: history.count, by: 1000).map { Array(history[$0..<($0 + 1000)]) }

    for (label, durability) in [("synchronous", DurabilityPolicy.synchronous), ("none", .none)] {
        for (suffix, encryption) in encryptionVariants {
            Benchmark(
                "Journal encode + append generated events, batch 1000, \(label)\(suffix)",
                configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(5))
            ) { benchmark, state in
                for round in 0..<max(1, benchmark.scaledIterations.count / 1000) {
                    try await state.journal.append(batches[round % batches.count].map(EncodedHistory.record))
                }
            } setup: {
                try AppendState(durability: durability, batchSize: 1, encryption: encryption)
            } teardown: {
                removeBenchmarkDirectories()
            }
        }
    }

    for (suffix, encryption) in encryptionVariants {
        Benchmark(
            "Journal read + decode 1M generated events\(suffix)",
            configuration: .init(scalingFactor: .mega, maxDuration: .seconds(5), maxIterations: 20)
        ) { (_, state: ReadState) in
            var count = 0
            try state.reader.forEachRecord { record in
                blackHole(try EncodedHistory.decode(record))
                count += 1
                return true
            }
            precondition(count == 1_000_000)
        } setup: { () async throws -> ReadState in
            let directory = benchmarkDirectory()
            var options = JournalOptions(durability: .none)
            options.encryption = encryption
            let journal = try Journal.open(at: FilePath(directory), options: options)
            // The 100k-event history ten times over: 1M records (ids repeat; decoding does not care).
            for _ in 0..<10 {
                for batch in batches { try await journal.append(batch.map(EncodedHistory.record)) }
            }
            try journal.close()
            return ReadState(directory: directory, reader: try JournalReader.open(at: FilePath(directory), encryption: encryption))
        } teardown: {
            removeBenchmarkDirectories()
        }
    }
}

/// Name suffix and encryption of the plain and the encrypted variant of a benchmark. The key is
/// fixed: the benchmark needs a key, not a secret.
let encryptionVariants: [(suffix: String, encryption: JournalEncryption?)] = {
    do {
        let key = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        return [("", nil), (", encrypted at rest", try JournalEncryption(keyID: 1, key: key))]
    } catch {
        preconditionFailure("a 32-byte key with id 1 is valid: \(error)")
    }
}()
