import Foundation

/// A table of one measure per row over a few variants of the same store (with and without a
/// feature), with the ratio of each variant to the first. Used by the encryption-cost run.
struct CostTable {
    /// One row: a figure per variant, `nil` where the variant has none.
    struct Row {
        let label: String
        let higherIsBetter: Bool
        let format: NumberStyle
        var values: [Double?]
    }

    /// Column titles, the baseline first.
    let variants: [String]
    var rows: [Row] = []

    mutating func add(_ label: String, higherIsBetter: Bool, format: NumberStyle = .count, _ values: [Double?]) {
        precondition(values.count == variants.count, "one value per variant")
        rows.append(Row(label: label, higherIsBetter: higherIsBetter, format: format, values: values))
    }

    func markdown() -> String {
        let others = variants.dropFirst()
        var lines = [
            "| measure | better | " + variants.joined(separator: " | ") + " | "
                + others.map { "\($0) / \(variants[0])" }.joined(separator: " | ") + " |",
            "|---|---|" + String(repeating: "---:|", count: variants.count + others.count),
        ]
        for row in rows {
            var cells = [row.label, row.higherIsBetter ? "higher" : "lower"]
            cells += row.values.map { $0.map(row.format.text) ?? "n/a" }
            cells += row.values.dropFirst().map { value in
                guard let value, let base = row.values[0], base > 0 else { return "" }
                return String(format: "%.3fx", value / base)
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
