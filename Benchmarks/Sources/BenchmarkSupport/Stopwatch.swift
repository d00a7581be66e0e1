import Foundation

/// Monotonic time in nanoseconds (`CLOCK_MONOTONIC`), for latency samples and throughput.
public enum Stopwatch {
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Seconds spent in `body`.
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }
}

/// Latency samples in nanoseconds.
public struct LatencySamples: Sendable {
    public var nanoseconds: [UInt64] = []

    public init() {}

    public mutating func record(since start: UInt64) {
        nanoseconds.append(Stopwatch.now() - start)
    }

    /// The `fraction` percentile (nearest rank) in milliseconds.
    public func percentileMilliseconds(_ fraction: Double) -> Double {
        guard !nanoseconds.isEmpty else { return .nan }
        let sorted = nanoseconds.sorted()
        let rank = min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)
        return Double(sorted[max(0, rank)]) / 1e6
    }

    public var totalSeconds: Double { Double(nanoseconds.reduce(0, +)) / 1e9 }
}
