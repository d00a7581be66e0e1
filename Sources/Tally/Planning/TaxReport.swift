import TallyModel
import TallyProjections
import TallyStore

/// What a viewer's transactions of a calendar year count toward per tax class (Swiss tax
/// categorization: Pillar 3a, work expenses; Phase 5 business): the live transactions of every
/// category with a tax class (`setCategoryTaxClass`), converted into the base currency at the
/// year's last day, exactly, and each figure rounded once (G2). Client and project are tags
/// (`client:NAME`, `project:NAME`), which `TransactionQuery` filters by.
public struct TaxReport: Sendable, Hashable {
    /// The calendar year.
    public let year: Int
    /// The base currency of every amount.
    public let currency: Currency
    /// One entry per tax class some category has, in the order of `TaxClass`.
    public let classes: [TaxClassTotal]
    /// Currencies without a rate on the year's last day (N3): their amounts are left out.
    public let missingRates: [Currency]
}

/// One tax class of a ``TaxReport``: its categories and their sums.
public struct TaxClassTotal: Sendable, Hashable {
    public let taxClass: TaxClass
    /// Income of the class's categories (e.g. business revenue).
    public let income: Money
    /// Expenses of the class's categories (e.g. the deductions).
    public let expense: Money
    /// How many transactions count.
    public let count: Int
    /// The categories with this class, by name (including those without transactions).
    public let categories: [TaxCategoryTotal]
}

/// One category of a ``TaxClassTotal``.
public struct TaxCategoryTotal: Sendable, Hashable {
    public let categoryID: CategoryID
    public let name: String
    public let income: Money
    public let expense: Money
    public let count: Int
}

extension Ledger {
    /// The tax report of calendar `year` for `viewer`: the transactions `viewer` sees (G7), not
    /// deleted, summed per tax class of their category, from one grouped query of the read-side
    /// store and the exchange rates of the wallet read model.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for a year outside 1...9999 or a total that
    ///   does not fit (G1); ``LedgerError/readSide(_:)`` when the ledger keeps no store.
    public func taxReport(year: Int, visibleTo viewer: Viewer) throws(LedgerError) -> TaxReport {
        guard let store = flushedStore() else { throw .readSide("the tax report reads the read-side store, which does not show the ledger's last batch; run `tally rebuild`") }
        return try TaxReport(year: year, visibleTo: viewer, store: store, budgets: servedModels.budgets, wallets: servedModels.wallets)
    }
}

extension TaxReport {
    /// The report of `year` for `viewer` from `store` and the categories and rates of the read
    /// models of the same batch.
    package init(year: Int, visibleTo viewer: Viewer, store: LedgerStore, budgets: BudgetProjection, wallets: WalletProjection) throws(LedgerError) {
        let span: PayPeriod
        do {
            span = PayPeriod(start: try LocalDate(year: year, month: 1, day: 1), end: try LocalDate(year: year, month: 12, day: 31))
        } catch {
            throw .invalidQuery("year \(year) is outside \(LocalDate.yearMin)...\(LocalDate.yearMax)")
        }
        var query = TransactionQuery(visibleTo: viewer)
        query.deleted = .excluded
        let cells: [PeriodTotal]
        do { cells = try store.categoryTotals(byPeriod: [span], query) } catch { throw LedgerError(error) }
        do {
            try self.init(year: year, on: span.end, cells: cells, categories: budgets.categories, wallets: wallets)
        } catch {
            throw .invalidQuery(error.description)
        }
    }

    private init(year: Int, on date: LocalDate, cells: [PeriodTotal], categories: [CategoryID: CategoryRecord], wallets: WalletProjection) throws(ProjectionError) {
        let currency = wallets.baseCurrency ?? .chf
        var missing = Set<Currency>()
        func convert(_ parts: [PeriodTotal], _ kind: TransactionKind) throws(ProjectionError) -> Money {
            let converted = try wallets.convertedTotal(
                parts.filter { $0.kind == kind }.map { (Int128($0.total.minorUnits), $0.total.currency) },
                dividedBy: 1, into: currency, on: date, rule: "G2")
            missing.formUnion(converted.missingRates)
            return converted.total
        }
        let byCategory = Dictionary(grouping: cells) { $0.categoryID }
        var classes: [TaxClassTotal] = []
        for taxClass in TaxClass.allCases {
            let members = categories.filter { $0.value.taxClass == taxClass && !$0.value.isDeleted }
                .sorted { ($0.value.name, $0.key) < ($1.value.name, $1.key) }
            guard !members.isEmpty else { continue }
            var lines: [TaxCategoryTotal] = []
            for (id, record) in members {
                let parts = byCategory[id] ?? []
                lines.append(TaxCategoryTotal(categoryID: id, name: record.name, income: try convert(parts, .income),
                                              expense: try convert(parts, .expense), count: parts.reduce(0) { $0 + $1.count }))
            }
            let parts = members.flatMap { byCategory[$0.key] ?? [] }
            classes.append(TaxClassTotal(taxClass: taxClass, income: try convert(parts, .income), expense: try convert(parts, .expense),
                                         count: lines.reduce(0) { $0 + $1.count }, categories: lines))
        }
        self.init(year: year, currency: currency, classes: classes, missingRates: missing.sorted())
    }
}
