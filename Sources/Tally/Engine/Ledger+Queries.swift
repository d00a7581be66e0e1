import TallyModel
import TallyProjections
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
        let debts = servedModels.debts
        return try withStore { store throws(StoreError) in try store.transactions(query, debts: query.settled == nil ? nil : debts) }
    }

    /// One page of a wallet's statement: its live transactions and transfers by date, each with
    /// the wallet's balance after it (Docs/Queries.md "Wallet statement").
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for an order by amount, a page size outside
    ///   1...1000 or a cursor of another order; ``LedgerError/readSide(_:)`` as the other queries.
    public func statement(_ query: StatementQuery) throws(LedgerError) -> StatementPage {
        let models = servedModels
        return try withStore { store throws(StoreError) in try store.statement(query, balancesFrom: models) }
    }

    /// One page of the settlements `query` selects (S6), with both people's names, for its
    /// viewer (G7: a member's own); keyset pages by date (Docs/Queries.md "Settlements").
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for an order by amount, a page size outside
    ///   1...1000 or a cursor of another order; ``LedgerError/readSide(_:)`` as the other queries.
    public func settlements(_ query: SettlementQuery) throws(LedgerError) -> SettlementPage {
        try withStore { store throws(StoreError) in try store.settlements(query) }
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

    /// Totals per pay period, category, kind and currency of what `query` selects, for the
    /// `count` pay periods (B1) ending with the one containing `date`, oldest first: a
    /// spending-by-category table per budget period.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when `count` is outside 1...1,000.
    public func categoryTotals(
        byPayPeriod query: TransactionQuery, last count: Int, endingWith date: LocalDate
    ) throws(LedgerError) -> [PeriodTotal] {
        let budgets = servedModels.budgets
        return try withStore { store throws(StoreError) in
            try store.categoryTotals(byPayPeriod: query, last: count, endingWith: date, budgets: budgets)
        }
    }

    /// The `count` pay periods (B1) ending with the one containing `date`, oldest first (fewer
    /// when the calendar's first day comes first).
    public func payPeriods(last count: Int, endingWith date: LocalDate) -> [PayPeriod] {
        servedModels.budgets.payPeriods(last: count, endingWith: date)
    }

    /// The totals of the wallets that count and `viewer` sees (G7: for a member, the
    /// household's wallets and their own), liabilities negative, with the latest rates; as of
    /// the end of `date` when given (W3, W5).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a total overflows (G1).
    public func totals(visibleTo viewer: Viewer, asOf date: LocalDate? = nil) throws(LedgerError) -> WalletTotals {
        do { return try servedModels.wallets.totals(asOf: date, visibleTo: viewer) } catch { throw .invalidQuery(error.description) }
    }

    /// The investment wallets `viewer` sees (G7: the household's and their own) that count (W4):
    /// each one's value (W5), net contributions, gain and share of the portfolio, and the
    /// portfolio's totals in the base currency with the latest rates (N3, G2; Swiff Phase 5
    /// investments, Docs/Projections.md "Investments").
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when an amount overflows (G1).
    public func investments(visibleTo viewer: Viewer) throws(LedgerError) -> InvestmentPortfolio {
        do { return try servedModels.wallets.investments(visibleTo: viewer) } catch { throw .invalidQuery(error.description) }
    }

    /// The household's budget for the pay period containing `date` (B1-B6): every category's
    /// allocation, spending and what is left. A budget is the household's (its figures sum
    /// every member's spending in a category, and list no entry): every member sees it (G7,
    /// Docs/Privacy.md).
    /// - Throws: ``LedgerError/invalidQuery(_:)`` when a figure overflows (G1).
    public func budget(containing date: LocalDate) throws(LedgerError) -> BudgetReport {
        let budgets = servedModels.budgets
        do { return try budgets.budget(for: budgets.period(containing: date)) } catch { throw .invalidQuery(error.description) }
    }

    /// The average monthly spending over the `months` months ending with `last` (N4).
    public func averageMonthlySpending(
        months: Int, endingWith last: YearMonth, _ query: TransactionQuery
    ) throws(LedgerError) -> [Money] {
        try withStore { store throws(StoreError) in try store.averageMonthlySpending(months: months, endingWith: last, query) }
    }

    /// A one-off read of the read-side store, GRDB style: `body` runs any of the store's queries
    /// (`LedgerStore`: balances, pages, search, reports, names) and returns what a screen needs.
    /// It sees every batch whose `execute` returned, so it reads an app's own writes; the same
    /// closure observed with ``observe(_:)`` gives the value after every later commit.
    ///
    /// ```swift
    /// let wallets = try await ledger.read { db in try db.walletBalances() }
    /// ```
    ///
    /// - Throws: the store's errors as ``LedgerError/invalidQuery(_:)`` or
    ///   ``LedgerError/readSide(_:)`` (no store that shows the last batch included); an error
    ///   `body` throws of its own, as it is.
    public func read<Value>(_ body: (LedgerStore) throws -> Value) throws -> Value {
        let store = try currentStore()
        do {
            return try body(store)
        } catch let error as StoreError {
            throw LedgerError(error)
        }
    }

    /// `body` on the store that shows the last acknowledged batch, its errors as the ledger's:
    /// the engine's own queries.
    func withStore<Value>(_ body: (LedgerStore) throws(StoreError) -> Value) throws(LedgerError) -> Value {
        let store = try currentStore()
        do {
            return try body(store)
        } catch {
            throw LedgerError(error)
        }
    }

    /// The store that shows the last acknowledged batch, or why there is none to answer from.
    private func currentStore() throws(LedgerError) -> LedgerStore {
        guard let store = flushedStore() else {
            throw .readSide("the read-side store does not show the ledger's last batch (\(openReport.readSide)); run `tally rebuild`")
        }
        return store
    }
}

extension LedgerStore {
    /// One page of a wallet's statement with the balances of `models` (the read models as of
    /// the store's coverage): ``Ledger/statement(_:)``, and a reader without the writer lock.
    package func statement(_ query: StatementQuery, balancesFrom models: Projections) throws(StoreError) -> StatementPage {
        try statement(query) { date throws(StoreError) in
            // The read models' balance at the end of the day: O(days the wallet moved).
            do {
                return try models.wallets.trackedBalance(of: query.walletID, throughEndOf: date)
            } catch {
                throw .invalidRow(path: path, table: "wallet_balances", reason: "\(error)")
            }
        }
    }
}

extension LedgerStore {
    /// ``Ledger/categoryTotals(byPayPeriod:last:endingWith:)`` with the pay periods of
    /// `budgets` (the read models as of the store's coverage), for a reader without the lock too.
    /// - Throws: `invalidQuery` when `count` is outside 1...1,000.
    package func categoryTotals(
        byPayPeriod query: TransactionQuery, last count: Int, endingWith date: LocalDate, budgets: BudgetProjection
    ) throws(StoreError) -> [PeriodTotal] {
        guard (1...TransactionQuery.limitMax).contains(count) else {
            throw .invalidQuery(reason: "a report per pay period covers 1...\(TransactionQuery.limitMax) periods, not \(count)")
        }
        return try categoryTotals(byPeriod: budgets.payPeriods(last: count, endingWith: date), query)
    }
}

extension BudgetProjection {
    /// The `count` pay periods (B1) ending with the one containing `date`, oldest first (fewer
    /// when the calendar's first day comes first).
    package func payPeriods(last count: Int, endingWith date: LocalDate) -> [PayPeriod] {
        var newestFirst = [period(containing: date)]
        while newestFirst.count < count, let oldest = newestFirst.last, let before = try? oldest.start.adding(days: -1) {
            newestFirst.append(period(containing: before))
        }
        return newestFirst.reversed()
    }
}

extension LedgerError {
    /// A read-side store's error as a ledger's: a query the store refuses stays
    /// ``invalidQuery(_:)``, anything else is ``readSide(_:)``.
    init(_ error: StoreError) {
        if case .invalidQuery(let reason) = error { self = .invalidQuery(reason) } else { self = .readSide(error.description) }
    }
}
