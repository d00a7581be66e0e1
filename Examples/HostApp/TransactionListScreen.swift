import Tally

/// What an activity list shows, from the store's queries: the first page of transactions,
/// newest first, the next page by its keyset cursor, and the totals per day of the newest
/// month (the headers of a list grouped by day).
struct TransactionListScreen {
    let ledger: Ledger
    /// Who is signed in (G7): the list holds what they see.
    let viewer: Viewer
    let pageSize: Int

    /// The two pages and the day totals, as text.
    func lines() async throws(LedgerError) -> [String] {
        var query = TransactionQuery(visibleTo: viewer)
        query.limit = pageSize
        let first = try await ledger.transactions(query)
        var lines = ["Transactions, newest first (page 1, \(first.rows.count) rows)"] + Self.lines(first)
        guard let next = first.next else { return lines + ["  end of list"] }
        query.after = next
        let second = try await ledger.transactions(query)
        lines += ["Transactions, page 2 (after \(next))"] + Self.lines(second)
        guard let month = first.rows.first?.transaction.date.yearMonth else { return lines }
        return lines + (try await dayTotals(in: month))
    }

    private static func lines(_ page: TransactionPage) -> [String] {
        let rows = page.rows.map { row in
            let transaction = row.transaction
            let sign = transaction.kind == .expense ? "-" : "+"
            return [
                "\(transaction.date)", "\(transaction.kind)", sign + transaction.amount.formatted(), row.walletName,
                row.categoryName ?? "\(transaction.categoryID)", row.payerName ?? "\(transaction.payer)",
            ]
        }
        return TextColumns.lines(rows, rightAligned: [2]) + ["  next: \(page.next.map { "\($0)" } ?? "end of list")"]
    }

    private func dayTotals(in month: YearMonth) async throws(LedgerError) -> [String] {
        var query = TransactionQuery(visibleTo: viewer)
        query.restrict(to: month)
        let totals = try await ledger.dayTotals(query)
        let rows = totals.map { ["\($0.date)", "\($0.kind)", $0.total.formatted(), "\($0.count)"] }
        return ["Day totals, \(month)"] + TextColumns.lines(rows, rightAligned: [2, 3])
    }
}
