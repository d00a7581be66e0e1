/// A plain-text table with aligned columns: text left, numbers and money right.
struct TextTable {
    enum Alignment { case left, right }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    /// The table as lines: header, a rule of `─`, rows. Widths count characters.
    func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func format(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, width) in widths.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let pad = String(repeating: " ", count: width - cell.count)
                parts.append(alignments[index] == .left ? cell + pad : pad + cell)
            }
            var line = parts.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        var rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        while rule.hasSuffix(" ") { rule.removeLast() }
        var lines = [format(headers), rule]
        lines.append(contentsOf: rows.map(format))
        return lines.joined(separator: "\n")
    }
}
