import GRDB
import TallyModel

extension LedgerStore {
    /// One page of the transactions `query` selects, with the wallet, category and payer names
    /// a list row shows: one indexed SQL query, O(page), at any depth (keyset pagination).
    /// - Throws: ``StoreError/invalidQuery(reason:)`` for a page size outside
    ///   1...``TransactionQuery/limitMax`` or a cursor made for another order; otherwise what
    ///   reading the store can throw.
    public func transactions(_ query: TransactionQuery) throws(StoreError) -> TransactionPage {
        guard (1...TransactionQuery.limitMax).contains(query.limit) else {
            throw .invalidQuery(reason: "a page holds 1...\(TransactionQuery.limitMax) rows, not \(query.limit)")
        }
        var filter = TransactionFilter(query)
        if let cursor = query.after {
            guard cursor.order == query.order else {
                throw .invalidQuery(reason: "the cursor \(cursor) continues a list in order \(cursor.order.rawValue), not \(query.order.rawValue)")
            }
            let (condition, values) = query.order.after(cursor)
            filter.add(condition, values)
        }
        let sql = """
            SELECT t.*, w.name AS wallet_name, c.name AS category_name, p.name AS payer_name
            FROM transactions t
            LEFT JOIN wallet_balances w ON w.wallet_id = t.wallet_id
            LEFT JOIN categories c ON c.category_id = t.category_id
            LEFT JOIN people p ON p.person_id = t.payer_id
            \(filter.whereClause) ORDER BY \(query.order.orderBy) LIMIT ?
            """
        let rows = try read { database in
            let reader = StoreRowReader(path: path, table: "transactions")
            return try Row.fetchAll(database, sql: sql, arguments: filter.arguments + [query.limit + 1]).map { row in
                TransactionRow(
                    transaction: try reader.transaction(row), walletName: try reader.column(row, "wallet_name", as: String?.self) ?? "",
                    categoryName: try reader.column(row, "category_name"), payerName: try reader.column(row, "payer_name"))
            }
        }
        let page = Array(rows.prefix(query.limit))
        let next = rows.count > query.limit ? page.last.map { query.order.cursor(after: $0.transaction) } : nil
        return TransactionPage(rows: page, next: next)
    }

    /// The totals per business date, kind and currency of what `query` selects (its order, page
    /// size and cursor aside), newest date first: the headers of a list grouped by day.
    public func dayTotals(_ query: TransactionQuery) throws(StoreError) -> [DayTotal] {
        let filter = TransactionFilter(query)
        let sql = """
            SELECT date, kind, currency, SUM(amount) AS total, COUNT(*) AS count FROM transactions t
            \(filter.whereClause) GROUP BY date, kind, currency ORDER BY date DESC, kind, currency
            """
        return try read { database in
            let reader = StoreRowReader(path: path, table: "transactions")
            return try Row.fetchAll(database, sql: sql, arguments: filter.arguments).map { row in
                DayTotal(
                    date: try reader.date(try reader.column(row, "date")), kind: try reader.kind(row),
                    total: try reader.money(row, amount: "total", currency: "currency"), count: try reader.column(row, "count"))
            }
        }
    }
}

/// The WHERE clause of a ``TransactionQuery``'s filters, with its arguments in order: written
/// once for pages, day totals and reports.
struct TransactionFilter {
    private(set) var conditions: [String] = []
    private(set) var arguments: StatementArguments = []

    init(_ query: TransactionQuery) {
        add(column: "t.wallet_id", in: query.walletIDs.map(\.description))
        add(column: "t.category_id", in: query.categoryIDs.map(\.description))
        add(column: "t.payer_id", in: query.payers.map(\.description))
        add(column: "t.kind", in: query.kinds.map { Int64($0.rawValue) })
        if let dates = query.dates {
            add("t.date BETWEEN ? AND ?", [StoreRowWriter.day(dates.lowerBound), StoreRowWriter.day(dates.upperBound)])
        }
        if let units = query.minorUnits { add("t.amount BETWEEN ? AND ?", [units.lowerBound, units.upperBound]) }
        switch query.deleted {
        case .excluded: add("t.is_live = 1", [])
        case .included: break
        case .only: add("t.is_live = 0", [])
        }
    }

    mutating func add(_ condition: String, _ values: StatementArguments) {
        conditions.append(condition)
        arguments += values
    }

    private mutating func add(column: String, in values: [some DatabaseValueConvertible]) {
        guard !values.isEmpty else { return }
        add("\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))", StatementArguments(values))
    }

    var whereClause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }
}

extension TransactionQuery.Order {
    private var column: String {
        switch self {
        case .newestFirst, .oldestFirst: "t.date"
        case .largestFirst, .smallestFirst: "t.amount"
        }
    }

    private var isDescending: Bool { self == .newestFirst || self == .largestFirst }

    var orderBy: String {
        let direction = isDescending ? "DESC" : "ASC"
        return "\(column) \(direction), t.sequence \(direction)"
    }

    /// The rows after `cursor` in this order.
    func after(_ cursor: TransactionCursor) -> (String, StatementArguments) {
        let comparison = isDescending ? "<" : ">"
        return ("(\(column) \(comparison) ? OR (\(column) = ? AND t.sequence \(comparison) ?))",
                [cursor.key, cursor.key, Int64(bitPattern: cursor.sequenceNumber)])
    }

    /// The cursor of the page that ends with `transaction`.
    func cursor(after transaction: StoredTransaction) -> TransactionCursor {
        let key = switch self {
        case .newestFirst, .oldestFirst: StoreRowWriter.day(transaction.date)
        case .largestFirst, .smallestFirst: transaction.amount.minorUnits
        }
        return TransactionCursor(order: self, key: key, sequenceNumber: transaction.sequenceNumber)
    }
}

extension LedgerStore {
    /// Totals per month, category, kind and currency of what `query` selects (its order, page
    /// size and cursor aside): a spending-by-category table per month, one grouped SQL query.
    /// Ordered by month, then category name and id, kind and currency.
    public func categoryTotals(byMonth query: TransactionQuery) throws(StoreError) -> [MonthTotal] {
        try monthTotals(query, byCategory: true)
    }

    /// Totals per month, kind and currency of what `query` selects: income against expense per
    /// month. Ordered by month, kind and currency.
    public func monthTotals(_ query: TransactionQuery) throws(StoreError) -> [MonthTotal] {
        try monthTotals(query, byCategory: false)
    }

    /// The average monthly spending (expenses, live) over the `months` months ending with
    /// `last`, per currency, rounded half to even to the minor unit (the N4 baseline); months
    /// without spending count as zero. `query` narrows further (wallets, categories, payers).
    /// - Throws: ``StoreError/invalidQuery(reason:)`` when `months` is not positive.
    public func averageMonthlySpending(months: Int, endingWith last: YearMonth, _ query: TransactionQuery = TransactionQuery()) throws(StoreError) -> [Money] {
        guard months > 0, let first = try? last.adding(months: 1 - months) else {
            throw .invalidQuery(reason: "an average needs 1 or more months ending with \(last), not \(months)")
        }
        var range = query
        range.dates = first.firstDay...last.lastDay
        range.kinds = [.expense]
        range.deleted = .excluded
        var sums: [Currency: Int128] = [:]
        for total in try monthTotals(range) { sums[total.total.currency, default: 0] += Int128(total.total.minorUnits) }
        return sums.keys.sorted { $0.code < $1.code }.map { currency in
            Money(minorUnits: Int64(clamping: (sums[currency] ?? 0).dividedRoundingHalfEven(by: Int128(months))), currency: currency)
        }
    }

    private func monthTotals(_ query: TransactionQuery, byCategory: Bool) throws(StoreError) -> [MonthTotal] {
        let filter = TransactionFilter(query)
        let category = byCategory ? "t.category_id, c.name AS category_name," : "NULL AS category_id, NULL AS category_name,"
        let group = byCategory ? "month, t.category_id, t.kind, t.currency" : "month, t.kind, t.currency"
        let order = byCategory ? "month, c.name, t.category_id, t.kind, t.currency" : "month, t.kind, t.currency"
        // SUM of 64-bit amounts: SQLite raises "integer overflow" rather than wrap, which reads
        // as a database error, never a wrong total.
        let sql = """
            SELECT t.date / 100 AS month, \(category) t.kind AS kind, t.currency AS currency,
                SUM(t.amount) AS total, COUNT(*) AS count
            FROM transactions t LEFT JOIN categories c ON c.category_id = t.category_id
            \(filter.whereClause) GROUP BY \(group) ORDER BY \(order)
            """
        return try read { database in
            let reader = StoreRowReader(path: path, table: "transactions")
            return try Row.fetchAll(database, sql: sql, arguments: filter.arguments).map { row in
                let month: Int64 = try reader.column(row, "month")
                guard let yearMonth = try? YearMonth(year: Int(month / 100), month: Int(month % 100)) else {
                    throw StoreError.invalidRow(path: path, table: "transactions", reason: "month \(month)")
                }
                return MonthTotal(
                    month: yearMonth, categoryID: byCategory ? try reader.id(row, "category_id") : nil,
                    categoryName: try reader.column(row, "category_name"), kind: try reader.kind(row),
                    total: try reader.money(row, amount: "total", currency: "currency"), count: try reader.column(row, "count"))
            }
        }
    }
}
