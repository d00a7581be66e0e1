import TallyModel
import TallyProjections
import TallyStore

/// What an analytics report asks (R4): income, expense and net per month, week, day or one
/// custom range, over the transactions a filter selects.
public struct AnalyticsQuery: Sendable, Hashable {
    /// How the dates are cut: month, week (from the household's first weekday, Monday unless
    /// `setFirstWeekday`, B5), day, or the whole range as one period (the report by category). The same values a report template stores (`ReportLayout`).
    public typealias Span = ReportSpan

    /// How the dates are cut.
    public var span: Span
    /// The first day; a month or week that starts before it starts the report with its first day.
    public var from: LocalDate
    /// The last day.
    public var through: LocalDate
    /// Which transactions count and who the report is for (its viewer, G7: a member's report
    /// sums only what they see; wallets, categories, people, tags, text, kinds; its dates,
    /// order, page and cursor are ignored). Deleted transactions never count (T3).
    public var filter: TransactionQuery

    /// Creates a query.
    public init(span: Span, from: LocalDate, through: LocalDate, filter: TransactionQuery) {
        self.span = span
        self.from = from
        self.through = through
        self.filter = filter
    }

    /// The periods of the report, oldest first, and the one before the first (its comparison).
    /// Weeks start on `firstWeekday`, the household's (B5).
    func periods(firstWeekday: Weekday) throws(LedgerError) -> (previous: PayPeriod, periods: [PayPeriod]) {
        guard from <= through else { throw .invalidQuery("analytics from \(from) through \(through): the range ends before it starts") }
        var periods: [PayPeriod] = []
        var start = from
        while start <= through {
            guard periods.count < Self.periodsMax else {
                throw .invalidQuery("analytics cover at most \(Self.periodsMax) periods; narrow the range or use a longer span")
            }
            let next: LocalDate
            do {
                switch span {
                case .month: next = try start.yearMonth.adding(months: 1).firstDay
                case .week: next = try start.startOfWeek(startingOn: firstWeekday).adding(days: 7)
                case .day: next = try start.adding(days: 1)
                case .range: next = try through.adding(days: 1)
                }
            } catch {
                next = .max
            }
            let end = min(through, (try? next.adding(days: -1)) ?? .max)
            periods.append(PayPeriod(start: start, end: end))
            guard next > start, next != .max else { break }
            start = next
        }
        guard let first = periods.first else { throw .invalidQuery("analytics need at least one day") }
        let previous: PayPeriod
        do {
            switch span {
            case .month:
                let month = try first.start.yearMonth.adding(months: -1)
                previous = PayPeriod(start: month.firstDay, end: month.lastDay)
            case .week:
                let weekStart = first.start.startOfWeek(startingOn: firstWeekday)
                previous = PayPeriod(start: try weekStart.adding(days: -7), end: try weekStart.adding(days: -1))
            case .day:
                previous = PayPeriod(start: try first.start.adding(days: -1), end: try first.start.adding(days: -1))
            case .range:
                let length = first.start.days(until: first.end) + 1
                previous = PayPeriod(start: try first.start.adding(days: -length), end: try first.start.adding(days: -1))
            }
        } catch {
            throw .invalidQuery("analytics from \(from): the period before it is outside the calendar")
        }
        return (previous, periods)
    }

    /// The most periods one report has.
    public static let periodsMax = 999
}

/// Income, expense and net of one period in the base currency (R4).
public struct AnalyticsTotals: Sendable, Hashable {
    /// Income, converted per G2 at the period's last day.
    public let income: Money
    /// Expenses, converted the same way.
    public let expense: Money
    /// `income - expense`.
    public var net: Money { Money(minorUnits: income.minorUnits &- expense.minorUnits, currency: income.currency) }
    /// `(income - expense) / income` in basis points, rounded half to even; `nil` without income.
    public var savingsRateBasisPoints: Int64? {
        guard income.minorUnits != 0 else { return nil }
        return Int64(clamping: (Int128(net.minorUnits) * 10_000).dividedRoundingHalfEven(by: Int128(income.minorUnits)))
    }
}

/// One category's total in a period and in the period before (R4).
public struct AnalyticsCategory: Sendable, Hashable {
    /// The category.
    public let categoryID: CategoryID
    /// Its name.
    public let name: String
    /// Income or expense.
    public let kind: TransactionKind
    /// The total in the period, base currency.
    public let amount: Money
    /// The total in the period before, base currency.
    public let previous: Money
}

/// One period of an analytics report (R4).
public struct AnalyticsPeriod: Sendable, Hashable {
    /// The period (its first and last day).
    public let period: PayPeriod
    /// Its totals.
    public let totals: AnalyticsTotals
    /// The totals of the period before it (period over period).
    public let previous: AnalyticsTotals
    /// Per category, by kind then name.
    public let categories: [AnalyticsCategory]
}

/// Income, expense, net and savings rate per period, per category, each beside the period
/// before (R4). Amounts in several currencies are converted into the base currency at each
/// period's last day, exactly, and each figure rounded once (G2).
public struct AnalyticsReport: Sendable, Hashable {
    /// The base currency of every amount.
    public let currency: Currency
    /// The periods, oldest first.
    public let periods: [AnalyticsPeriod]
    /// Currencies without a rate (N3): their amounts are left out.
    public let missingRates: [Currency]
}

extension Ledger {
    /// Income, expense, net and savings rate per month, week or range, per category, each with
    /// the period before (R4), from the read-side store (one grouped query) and the exchange
    /// rates of the wallet read model.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for a range that ends before it starts, more
    ///   than ``AnalyticsQuery/periodsMax`` periods, or a total that does not fit (G1);
    ///   ``LedgerError/readSide(_:)`` when the ledger keeps no store.
    public func analytics(_ query: AnalyticsQuery) throws(LedgerError) -> AnalyticsReport {
        guard let store = flushedStore() else { throw .readSide("analytics read the read-side store, which does not show the ledger's last batch; run `tally rebuild`") }
        return try AnalyticsReport(query, store: store, wallets: servedModels.wallets, firstWeekday: servedModels.budgets.firstWeekday)
    }
}

extension AnalyticsReport {
    /// The report of `query` from `store` and the rates of `wallets` (of the same batch).
    /// Weeks start on `firstWeekday`, the household's (``BudgetProjection/firstWeekday``, B5).
    package init(_ query: AnalyticsQuery, store: LedgerStore, wallets: WalletProjection, firstWeekday: Weekday) throws(LedgerError) {
        let (previous, periods) = try query.periods(firstWeekday: firstWeekday)
        var filter = query.filter
        filter.dates = nil
        filter.deleted = .excluded
        let rows: [PeriodTotal]
        do {
            rows = try store.categoryTotals(byPeriod: [previous] + periods, filter)
        } catch {
            throw LedgerError(error)
        }
        do {
            try self.init(rows: rows, previous: previous, periods: periods, wallets: wallets)
        } catch {
            throw .invalidQuery(error.description)
        }
    }

    init(rows: [PeriodTotal], previous: PayPeriod, periods: [PayPeriod], wallets: WalletProjection) throws(ProjectionError) {
        let currency = wallets.baseCurrency ?? .chf
        var missing = Set<Currency>()
        let byPeriod = Dictionary(grouping: rows, by: \.period)
        func convert(_ parts: [PeriodTotal], _ period: PayPeriod) throws(ProjectionError) -> Money {
            let converted = try wallets.convertedTotal(
                parts.map { (Int128($0.total.minorUnits), $0.total.currency) }, dividedBy: 1, into: currency, on: period.end, rule: "R4")
            missing.formUnion(converted.missingRates)
            return converted.total
        }
        func totals(_ period: PayPeriod) throws(ProjectionError) -> AnalyticsTotals {
            let parts = byPeriod[period] ?? []
            return AnalyticsTotals(income: try convert(parts.filter { $0.kind == .income }, period),
                                   expense: try convert(parts.filter { $0.kind == .expense }, period))
        }
        var result: [AnalyticsPeriod] = []
        var before = previous
        for period in periods {
            let now = byPeriod[period] ?? []
            let then = byPeriod[before] ?? []
            var keys: [(kind: TransactionKind, id: CategoryID, name: String)] = []
            for row in now + then {
                guard let id = row.categoryID, !keys.contains(where: { $0.kind == row.kind && $0.id == id }) else { continue }
                keys.append((row.kind, id, row.categoryName ?? id.description))
            }
            keys.sort { ($0.kind.rawValue, $0.name, $0.id) < ($1.kind.rawValue, $1.name, $1.id) }
            var categories: [AnalyticsCategory] = []
            for key in keys {
                let matches = { (row: PeriodTotal) in row.kind == key.kind && row.categoryID == key.id }
                categories.append(AnalyticsCategory(
                    categoryID: key.id, name: key.name, kind: key.kind,
                    amount: try convert(now.filter(matches), period), previous: try convert(then.filter(matches), before)))
            }
            result.append(AnalyticsPeriod(period: period, totals: try totals(period), previous: try totals(before), categories: categories))
            before = period
        }
        self.init(currency: currency, periods: result, missingRates: missing.sorted())
    }
}
