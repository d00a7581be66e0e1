import Foundation

extension Comparison {
    /// The value of the measurement whose label starts with `prefix`, for `store`.
    func value(_ prefix: String, _ store: String = "Tally") -> Double? {
        table.measurements.first { $0.label.hasPrefix(prefix) }?.values[store]
    }

    /// The issue's targets with this run's figures and a verdict each.
    func targetReport() -> String {
        func verdict(_ passed: Bool?) -> String {
            guard let passed else { return "n/a" }
            return passed ? "MET" : "MISSED"
        }
        func ratio(_ numerator: Double?, _ denominator: Double?) -> Double? {
            guard let numerator, let denominator, denominator > 0 else { return nil }
            return numerator / denominator
        }
        func text(_ value: Double?, _ format: String) -> String {
            value.map { String(format: format, $0) } ?? "n/a"
        }
        let batch = value("Durable append, batches of 1000")
        let sqliteJSON = ratio(batch, value("Durable append, batches of 1000", "SQLite JSON"))
        let sqliteBinary = ratio(batch, value("Durable append, batches of 1000", "SQLite binary"))
        let rawP50 = rawSync.percentileMilliseconds(0.5)
        let singleP50 = value("Single-event durable append p50")
        let singleRatio = ratio(singleP50, rawP50)
        let concurrent = value("64 tasks")
        let read = value("Full read + decode")
        let bytesRatio = ratio(value("Bytes on disk per event"), value("Bytes on disk per event", "SQLite binary"))
        let verify = value("Verify")
        let memory = table.measurements.first { $0.label.hasPrefix("Streaming read") }?.values["Tally"]
        let memoryEvents = figures["memoryEvents"] ?? 0

        var lines = [
            "| target | this run | verdict |",
            "|---|---|---|",
            "| batches of 1000 >= 2,000,000 events/s | \(batch.map(NumberStyle.grouped) ?? "n/a") | \(verdict(batch.map { $0 >= 2_000_000 })) |",
            "| batches of 1000 >= 5x SQLite FULL | \(text(sqliteJSON, "%.1fx")) vs JSON, \(text(sqliteBinary, "%.1fx")) vs binary | \(verdict(sqliteJSON.map { $0 >= 5 })) vs JSON, \(verdict(sqliteBinary.map { $0 >= 5 })) vs binary |",
            "| single-event p50 <= 1.2x raw fdatasync p50 | \(text(singleP50, "%.3f")) ms vs \(String(format: "%.3f", rawP50)) ms (\(text(singleRatio, "%.2fx"))) | \(verdict(singleRatio.map { $0 <= 1.2 })) |",
            "| 64 tasks >= 50,000 events/s | \(concurrent.map(NumberStyle.grouped) ?? "n/a") | \(verdict(concurrent.map { $0 >= 50_000 })) |",
            "| replay >= 2,000,000 events/s | \(NumberStyle.grouped(figures["replayPerSecond"] ?? .nan)) into all read models (\(NumberStyle.grouped(figures["engineEvents"] ?? .nan)) events); read + decode alone \(read.map(NumberStyle.grouped) ?? "n/a") | \(verdict(figures["replayPerSecond"].map { $0 >= 2_000_000 })) |",
            "| bytes/event <= 0.5x SQLite binary | \(text(bytesRatio, "%.2fx")) | \(verdict(bytesRatio.map { $0 <= 0.5 })) |",
            "| open 1M with checkpoint < 50 ms | \(text(figures["openMilliseconds"], "%.1f")) ms (\(NumberStyle.grouped(figures["engineEvents"] ?? .nan)) events) | \(verdict(figures["openMilliseconds"].map { $0 < 50 && (figures["engineEvents"] ?? 0) >= 1_000_000 })) |",
            "| verify >= 1 GB/s | \(verify.map { String(format: "%.0f MB/s", $0) } ?? "n/a") | \(verdict(verify.map { $0 >= 1000 })) |",
            "| 10M replay < 64 MB extra (read models aside) | journal streaming read + decode of \(NumberStyle.grouped(memoryEvents)) events: \(text(memory, "%.1f")) MB; replay of \(NumberStyle.grouped(figures["engineEvents"] ?? .nan)) events with all read models: \(text(figures["replayPeakMB"], "%.0f")) MB | \(verdict(memory.map { $0 < 64 }))\(memoryEvents < 10_000_000 ? " (run with --memory-events 10000000)" : "") for the journal; read models grow with the history |",
        ]
        lines.append("")
        lines.append(String(format: "Raw fdatasync after a 4 KiB append, same run: p50 %.3f ms, p99 %.3f ms (%d samples).",
                            rawP50, rawSync.percentileMilliseconds(0.99), rawSync.nanoseconds.count))
        return lines.joined(separator: "\n")
    }
}
