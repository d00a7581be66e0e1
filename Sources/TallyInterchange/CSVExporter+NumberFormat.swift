import TallyModel

extension CSVExporter {
    /// How the amounts of a CSV export are written (Flow US-050): every export takes one.
    /// Both keep the `.` decimal mark and every minor-unit digit, and both read back through the
    /// CSV import (`CSVAmount`). Percentages are written `62.50` in either.
    public enum NumberFormat: String, Sendable, Hashable, CaseIterable {
        /// `1234.50`, `-1234.50` (``TallyModel/Money/plainNumber()``): the default.
        case plain
        /// `1'234.50`: grouped by three with the Swiss apostrophe, the grouping `Money.formatted()`
        /// gives CHF (``TallyModel/Money/swissNumber()``, the one place the rule is written).
        case swiss

        /// `money` as an amount cell (no currency code: the row names it).
        public func text(_ money: Money) -> String {
            switch self {
            case .plain: money.plainNumber()
            case .swiss: money.swissNumber()
            }
        }
    }

    /// Basis points as a percentage with two decimals, rounded toward zero (`6250` -> `62.50`).
    static func percent(basisPoints: Int64) -> String {
        let magnitude = basisPoints.magnitude
        let fraction = String(magnitude % 100)
        return (basisPoints < 0 ? "-" : "") + String(magnitude / 100) + "." + (fraction.count == 1 ? "0" + fraction : fraction)
    }

    /// The CSV text of `header` and `rows`: one line each, fields quoted as RFC 4180 needs
    /// (the delimiter, a quote or a line break), every line ending in a line feed.
    static func text(header: [String], rows: [[String]]) -> String {
        let lines = [header] + rows
        return lines.map { fields in fields.map { CSVTable.quoted($0, delimiter: ",") }.joined(separator: ",") }.joined(separator: "\n") + "\n"
    }
}
