import Tally

/// A spending-by-category report: the expenses of the `months` months ending with the month
/// of the newest transaction, one row per category and currency, one column per month with
/// expenses, from one grouped query (``Tally/Ledger/categoryTotals(byMonth:)``).
struct CategoryMonthReport {
    let ledger: Ledger
    /// Who is signed in (G7): the report sums what they see.
    let viewer: Viewer
    /// How many months, ending with the newest transaction's month, the report covers.
    var months = 3

    /// The report as text; one line saying so when there is no expense.
    func lines() async throws(LedgerError) -> [String] {
        var newest = TransactionQuery(visibleTo: viewer)
        newest.limit = 1
        guard let last = try await ledger.transactions(newest).rows.first?.transaction.date.yearMonth,
              let first = try? last.adding(months: 1 - months)
        else { return ["Expenses by category and month: no transactions"] }
        var query = TransactionQuery(visibleTo: viewer)
        query.kinds = [.expense]
        query.dates = first.firstDay...last.lastDay
        let totals = try await ledger.categoryTotals(byMonth: query)
        let columns = Array(Set(totals.map(\.month))).sorted()
        var cells: [RowKey: [YearMonth: Money]] = [:]
        for total in totals {
            cells[RowKey(category: total.categoryName ?? total.categoryID.map { "\($0)" } ?? "none", currency: total.total.currency), default: [:]][total.month] = total.total
        }
        let header = ["category"] + columns.map(\.isoString)
        let rows = cells.keys.sorted().map { key in
            [key.category] + columns.map { month in cells[key]?[month]?.formatted() ?? "" }
        }
        return ["Expenses by category and month (\(first)...\(last))"]
            + TextColumns.lines([header] + rows, rightAligned: Set(1...max(1, columns.count)))
    }

    /// A row of the report: a category in one currency (totals are per currency).
    private struct RowKey: Hashable, Comparable {
        let category: String
        let currency: Currency

        static func < (lhs: RowKey, rhs: RowKey) -> Bool {
            (lhs.category, "\(lhs.currency)") < (rhs.category, "\(rhs.currency)")
        }
    }
}
