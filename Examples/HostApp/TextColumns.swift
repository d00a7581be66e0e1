/// Lays out rows of cells in columns separated by two spaces, for the example's screens.
enum TextColumns {
    /// The rows as lines, each column as wide as its widest cell, indented by two spaces;
    /// the columns in `rightAligned` are padded on the left (amounts).
    static func lines(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            return "  " + cells.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
