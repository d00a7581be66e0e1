import Benchmark
import Foundation
import TallyModel
import TallyWorkload

/// Event codec throughput on the generated household workload: `EventCodec.encode` and
/// `.decode` of 1,000 realistic events per iteration (every 10th event of a 10,000-event
/// history, so the mix is the steady state, not the setup; throughput is events/s), with the
/// Codable JSON DTO as the reference a typical app would use.
///
/// Names have no spaces: ordo-one 1.38.1 writes threshold files with spaces turned into `_`
/// but looks them up with the raw name, so a name with a space never finds its thresholds.
///
/// Static thresholds live in `Thresholds/` (`swift package benchmark thresholds check`); the
/// tolerances below say how far a run may drift before it counts as a regression. The machine
/// is shared and noisy, so they are wide: a real regression in the codec shows up as 2x, not 10%.
let benchmarks: @Sendable () -> Void = {
    let tolerance = BenchmarkThresholds(relative: [.p50: 35.0, .p90: 50.0])
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(3), maxIterations: 1_000,
        thresholds: [.throughput: tolerance, .wallClock: tolerance, .mallocCountTotal: BenchmarkThresholds(relative: [.p50: 5.0])])

    let history = Array(HouseholdHistory(count: 10_000))
    let events = stride(from: 5, to: history.count, by: 10).map { history[$0] }
    precondition(events.count == 1_000, "the scaling factor (.kilo) assumes 1,000 events per iteration")
    let encoded = events.map(EventCodec.encode)
    let json = events.map(EventJSON.init)

    Benchmark("EventCodec.encode") { benchmark in
        for _ in 0..<benchmark.scaledIterations.count / 1_000 {  // one pass = 1,000 events
            for event in events { blackHole(EventCodec.encode(event)) }
        }
    }

    Benchmark("EventCodec.encode-into-one-BinaryWriter") { benchmark in
        for _ in 0..<benchmark.scaledIterations.count / 1_000 {  // one pass = 1,000 events
            var writer = BinaryWriter(reservingCapacity: 1 << 20)
            for event in events { blackHole(EventCodec.encode(event, into: &writer)) }
            blackHole(writer.bytes.count)
        }
    }

    Benchmark("EventCodec.decode") { benchmark in
        for _ in 0..<benchmark.scaledIterations.count / 1_000 {  // one pass = 1,000 events
            for (event, bytes) in zip(events, encoded) {
                blackHole(try EventCodec.decode(bytes, recordedAt: event.recordedAt))
            }
        }
    }

    Benchmark("JSONEncoder-CodableDTO-reference") { benchmark in
        let encoder = JSONEncoder()
        for _ in 0..<benchmark.scaledIterations.count / 1_000 {  // one pass = 1,000 events
            for dto in json { blackHole(try encoder.encode(dto)) }
        }
    }

    Benchmark("WorkloadGeneration") { benchmark in
        for _ in 0..<benchmark.scaledIterations.count / 1_000 {  // one pass = 1,000 events
            for event in HouseholdHistory(count: 1_000) { blackHole(event) }
        }
    }

    registerPersonalTextSealingBenchmarks()
}
