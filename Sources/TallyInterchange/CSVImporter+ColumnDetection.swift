import Tally
import TallyModel

extension CSVImporter {
    /// Finds the date, amount and category columns by their content when the header has no
    /// column of the mapped name (Flow US-046 "auto-detect columns"; Docs/Interchange.md
    /// "Columns"). Only columns no other field's header claims are candidates:
    ///
    /// - date: every cell reads as a date in one of the formats (``CSVDateFormat``);
    /// - amount: every cell reads as an amount in `currency` (``CSVAmount``) and at least one
    ///   is signed or has a decimal mark (a column of bare whole numbers is a reference, not
    ///   taken for amounts);
    /// - category: every non-empty cell names a live category (or a mapped name) and one does.
    ///
    /// A required field (date, amount) with no candidate is `csvColumnMissing`, with several
    /// `csvColumnAmbiguous` naming them: never a guess. The category column is used when
    /// exactly one column fits, else left out.
    struct ColumnDetection {
        let table: CSVTable
        let state: LedgerState
        let currency: Currency
        let dateFormat: CSVDateFormat?
        let categoryMapping: [String: String]
        /// Columns a field's header claims: never a candidate for another field.
        var claimed: Set<Int>
        private(set) var detected: [DetectedColumn] = []

        init(table: CSVTable, state: LedgerState, currency: Currency, dateFormat: CSVDateFormat?, categoryMapping: [String: String], claimed: Set<Int>) {
            self.table = table
            self.state = state
            self.currency = currency
            self.dateFormat = dateFormat
            self.categoryMapping = categoryMapping
            self.claimed = claimed
        }

        private func cells(_ column: Int) -> [String] {
            table.rows.map { $0[column].trimmingCharacters(in: .whitespaces) }
        }

        /// The date column: the header's `mapped`, else the one whose cells all read as dates.
        mutating func date(mapped: Int?, name: String) throws(InterchangeError) -> Int {
            if let mapped { return mapped }
            let formats = dateFormat.map { [$0] } ?? CSVDateFormat.allCases
            return try required("date", name: name) { cells in
                !cells.isEmpty && formats.contains { format in cells.allSatisfy { format.parse($0) != nil } }
            }
        }

        /// The amount column: the header's `mapped`, else the one whose cells all read as amounts.
        mutating func amount(mapped: Int?, name: String) throws(InterchangeError) -> Int {
            if let mapped { return mapped }
            let currency = currency
            return try required("amount", name: name) { cells in
                !cells.isEmpty
                    && cells.allSatisfy { (try? CSVAmount.read($0, currency: currency)) != nil }
                    && cells.contains { cell in cell.contains { "+-.,".contains($0) } }
            }
        }

        /// The category column: the header's `mapped`, else the one column whose non-empty
        /// cells all name a live category; `nil` when none or several do.
        mutating func category(mapped: Int?) -> Int? {
            if let mapped { return mapped }
            let names = Set(state.categories.values.filter { !$0.isDeleted }.map { $0.name.lowercased() })
            let mapping = Set(categoryMapping.keys.map { $0.lowercased() })
            let fits = candidates { cells in
                let named = cells.filter { !$0.isEmpty }.map { $0.lowercased() }
                return !named.isEmpty && named.allSatisfy { names.contains($0) || mapping.contains($0) }
            }
            guard fits.count == 1, let column = fits.first else { return nil }
            claim(column, for: "category")
            return column
        }

        private func candidates(_ fits: ([String]) -> Bool) -> [Int] {
            table.header.indices.filter { !claimed.contains($0) && fits(cells($0)) }
        }

        private mutating func claim(_ column: Int, for field: String) {
            claimed.insert(column)
            detected.append(DetectedColumn(field: field, column: table.header[column]))
        }

        private mutating func required(_ field: String, name: String, fits: ([String]) -> Bool) throws(InterchangeError) -> Int {
            let found = candidates(fits)
            guard let column = found.first else {
                throw InterchangeError(
                    code: "csvColumnMissing",
                    message: "no column \"\(name)\" in the header \(table.header), and no other column's cells all read as \(field)s; map it with \(field)=COLUMN")
            }
            guard found.count == 1 else {
                let names = found.map { "column \($0 + 1) (\"\(table.header[$0])\")" }
                throw InterchangeError(
                    code: "csvColumnAmbiguous",
                    message: "no column \"\(name)\" in the header, and \(names.joined(separator: " and ")) all read as \(field)s; choose one with \(field)=COLUMN")
            }
            claim(column, for: field)
            return column
        }
    }
}
