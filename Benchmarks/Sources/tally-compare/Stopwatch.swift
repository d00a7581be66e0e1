import Foundation

/// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`), for latency samples and throughput.
enum Stopwatch {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Seconds spent in `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }
}

/// Latency samples in nanoseconds.
struct LatencySamples {
    var nanoseconds: [UInt64] = []

    mutating func record(since start: UInt64) {
        nanoseconds.append(Stopwatch.now() - start)
    }

    /// The `fraction` percentile (nearest rank) in milliseconds.
    func percentileMilliseconds(_ fraction: Double) -> Double {
        guard !nanoseconds.isEmpty else { return .nan }
        let sorted = nanoseconds.sorted()
        let rank = min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)
        return Double(sorted[max(0, rank)]) / 1e6
    }

    var totalSeconds: Double { Double(nanoseconds.reduce(0, +)) / 1e9 }
}
