import TallyModel
import TallyStore

/// What an app's screens ask (issue 15), answered by the read-side store as of the last
/// committed batch: pages of transactions, day totals and reports, each one SQL query whose
/// cost does not grow with history (Docs/Queries.md).
extension Ledger {
    /// One page of the transactions `query` selects (keyset pages: pass `page.next` as
    /// `query.after` for the next one).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for a query the store cannot answer as
    ///   asked; ``LedgerError/readSide(_:)`` when the ledger keeps no store or it cannot be read.
    public func transactions(_ query: TransactionQuery) throws(LedgerError) -> TransactionPage {
        try withStore { store throws(StoreError) in try store.transactions(query) }
    }

    /// Totals per business date, kind and currency of what `query` selects.
    public func dayTotals(_ query: TransactionQuery) throws(LedgerError) -> [DayTotal] {
        try withStore { store throws(StoreError) in try store.dayTotals(query) }
    }

    /// Totals per month, category, kind and currency of what `query` selects.
    public func categoryTotals(byMonth query: TransactionQuery) throws(LedgerError) -> [MonthTotal] {
        try withStore { store throws(StoreError) in try store.categoryTotals(byMonth: query) }
    }

    /// Totals per month, kind and currency of what `query` selects (income against expense).
    public func monthTotals(_ query: TransactionQuery) throws(LedgerError) -> [MonthTotal] {
        try withStore { store throws(StoreError) in try store.monthTotals(query) }
    }

    /// The average monthly spending over the `months` months ending with `last` (N4).
    public func averageMonthlySpending(
        months: Int, endingWith last: YearMonth, _ query: TransactionQuery = TransactionQuery()
    ) throws(LedgerError) -> [Money] {
        try withStore { store throws(StoreError) in try store.averageMonthlySpending(months: months, endingWith: last, query) }
    }

    private func withStore<Value>(_ body: (LedgerStore) throws(StoreError) -> Value) throws(LedgerError) -> Value {
        guard let store else {
            throw .readSide("the read-side store does not show the ledger's last batch (\(openReport.readSide)); run `tally rebuild`")
        }
        do {
            return try body(store)
        } catch .invalidQuery(let reason) {
            throw .invalidQuery(reason)
        } catch {
            throw .readSide(error.description)
        }
    }
}
