import TallyModel

/// A spending-by-category report pivoted for a table: one row per category, kind and currency,
/// one column per month or pay period (``LedgerStore/categoryTotals(byMonth:)`` and
/// ``LedgerStore/categoryTotals(byPeriod:_:)`` return its cells flat).
///
/// ```swift
/// let report = try await ledger.categoryTotals(byMonth: query).pivoted()
/// for row in report.rows { print(row.categoryName ?? "-", row.amounts.map(\.minorUnits), row.total.minorUnits) }
/// ```
public struct SpanReport<Span: Comparable & Sendable & Hashable>: Sendable, Hashable {
    /// The columns: every span a cell names, ascending.
    public let spans: [Span]
    /// The rows, by category name (categories without a name last), kind and currency.
    public let rows: [Row]

    /// One category, kind and currency across the spans.
    public struct Row: Sendable, Hashable {
        public let categoryID: CategoryID?
        public let categoryName: String?
        public let kind: TransactionKind
        public let currency: Currency
        /// The total of each span, aligned with ``SpanReport/spans`` (zero where the category had
        /// nothing).
        public let amounts: [Money]
        /// How many transactions each span counts, aligned with ``SpanReport/spans``.
        public let counts: [Int]
        /// The row's total over every span.
        public let total: Money
    }

    private static func overflow(_ currency: Currency) -> StoreError {
        .invalidRow(path: "report", table: "transactions", reason: "a total of a report row in \(currency) leaves the 64-bit range (G1)")
    }

    private struct Key: Hashable {
        let categoryID: CategoryID?
        let kind: TransactionKind
        let currency: Currency
    }

    /// Pivots `cells`: each cell lands in its row and column; a category, kind and currency
    /// without a cell in a span shows zero there.
    /// - Throws: ``StoreError/invalidRow(path:table:reason:)`` when a row's total leaves the 64-bit
    ///   range (G1 keeps every sum of a ledger inside it; only damaged cells could).
    public init(_ cells: [SpanTotal<Span>]) throws(StoreError) {
        let spans = Set(cells.map(\.span)).sorted()
        let column = Dictionary(uniqueKeysWithValues: spans.enumerated().map { ($1, $0) })
        var amounts: [Key: [Int64]] = [:]
        var counts: [Key: [Int]] = [:]
        var names: [Key: String] = [:]
        for cell in cells {
            let key = Key(categoryID: cell.categoryID, kind: cell.kind, currency: cell.total.currency)
            guard let index = column[cell.span] else { continue }
            var row = amounts[key] ?? Array(repeating: 0, count: spans.count)
            let (sum, overflow) = row[index].addingReportingOverflow(cell.total.minorUnits)
            guard !overflow else { throw Self.overflow(key.currency) }
            row[index] = sum
            amounts[key] = row
            counts[key, default: Array(repeating: 0, count: spans.count)][index] += cell.count
            if let name = cell.categoryName { names[key] = name }
        }
        var rows: [Row] = []
        for (key, units) in amounts {
            var total: Int64 = 0
            for value in units {
                let (sum, overflow) = total.addingReportingOverflow(value)
                guard !overflow else { throw Self.overflow(key.currency) }
                total = sum
            }
            rows.append(Row(
                categoryID: key.categoryID, categoryName: names[key], kind: key.kind, currency: key.currency,
                amounts: units.map { Money(minorUnits: $0, currency: key.currency) }, counts: counts[key] ?? [],
                total: Money(minorUnits: total, currency: key.currency)))
        }
        rows.sort { ($0.categoryName ?? "\u{10FFFF}", $0.kind.rawValue, $0.currency.code, $0.categoryID?.description ?? "")
            < ($1.categoryName ?? "\u{10FFFF}", $1.kind.rawValue, $1.currency.code, $1.categoryID?.description ?? "") }
        self.spans = spans
        self.rows = rows
    }
}

extension Array {
    /// These report cells as a table: rows by category, columns by span (``SpanReport``).
    public func pivoted<Span>() throws(StoreError) -> SpanReport<Span> where Element == SpanTotal<Span> {
        try SpanReport(self)
    }
}
