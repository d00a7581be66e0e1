import Foundation

/// One measured quantity for each store that has it.
struct Measurement {
    let label: String
    /// True when a larger figure is better (throughput), false for latency, bytes, memory.
    let higherIsBetter: Bool
    let format: NumberStyle
    var values: [String: Double] = [:]
    /// Printed instead of figures when there are none yet.
    var unavailable: String?
}

enum NumberStyle {
    case count, milliseconds, bytes, megabytes

    func text(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        switch self {
        case .count: return Self.grouped(value)
        case .milliseconds: return String(format: "%.3f", value)
        case .bytes: return String(format: "%.1f", value)
        case .megabytes: return String(format: "%.1f", value)
        }
    }

    static func grouped(_ value: Double) -> String {
        let digits = String(Int64(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}

/// The comparison table in Markdown: one column per store, then Tally / peer ratios.
struct ResultTable {
    static let stores = ["Tally", "SQLite JSON", "SQLite binary", "JSON Lines"]

    var measurements: [Measurement] = []

    func markdown() -> String {
        let peers = Self.stores.dropFirst()
        var lines: [String] = []
        lines.append("| measure | better | " + Self.stores.joined(separator: " | ") + " | "
            + peers.map { "Tally/\($0)" }.joined(separator: " | ") + " |")
        lines.append("|---|---|" + String(repeating: "---:|", count: Self.stores.count + peers.count))
        for measurement in measurements {
            var cells = [measurement.label, measurement.higherIsBetter ? "higher" : "lower"]
            if let unavailable = measurement.unavailable {
                cells.append(unavailable)
                cells += Array(repeating: "", count: Self.stores.count + peers.count - 1)
            } else {
                cells += Self.stores.map { measurement.values[$0].map(measurement.format.text) ?? "n/a" }
                cells += peers.map { peer in
                    guard let tally = measurement.values["Tally"], let other = measurement.values[peer], other > 0 else { return "" }
                    return String(format: "%.2fx", tally / other)
                }
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
