import Foundation
import GRDB
import TallyModel
import TallyProjections

extension LedgerStore {
    /// One page of the transactions `query` selects, with the wallet, category and payer names
    /// a list row shows: one indexed SQL query, O(page), at any depth (keyset pagination).
    /// - Parameters:
    ///   - query: the list.
    ///   - debts: the debt read model of the same sequence number as the store, for
    ///     ``TransactionQuery/settled`` (which shared transactions have a share still open);
    ///     `nil` without that filter.
    /// - Throws: ``StoreError/invalidQuery(reason:)`` for a page size outside
    ///   1...``TransactionQuery/limitMax``, a cursor made for another order or a settled filter
    ///   without `debts`; otherwise what reading the store can throw.
    public func transactions(_ query: TransactionQuery, debts: DebtProjection? = nil) throws(StoreError) -> TransactionPage {
        try query.order.requirePage(limit: query.limit, after: query.after)
        var filter = try TransactionSQLFilter(query, openTransactions: debts?.openTransactionIDs)
        if let cursor = query.after {
            let (condition, values) = query.order.after(cursor)
            filter.add(condition, values)
        }
        let (page, hasMore) = try read { database in
            let found = try Self.transactionRows(
                database, path: path, from: filter.source, where: filter.whereClause, orderBy: query.order.orderBy,
                limit: query.limit + 1, arguments: filter.arguments)
            return (Array(found.prefix(query.limit)), found.count > query.limit)
        }
        let next = hasMore ? page.last.map { query.order.cursor(after: $0) } : nil
        return TransactionPage(rows: page, next: next)
    }

    /// The rows a condition selects, in an order, with the names, notes, tags and splits a list
    /// row shows (the notes, tags and splits in three more queries by the rows' ids). Runs
    /// inside ``read(_:)``, which reports any error as a ``StoreError``.
    static func transactionRows(
        _ database: Database, path: String, from source: String = "transactions t", where condition: String,
        orderBy order: String, limit: Int, arguments: StatementArguments
    ) throws -> [TransactionRow] {
        let sql = """
            SELECT t.*, w.name AS wallet_name, c.name AS category_name, p.name AS payer_name
            FROM \(source)
            LEFT JOIN wallet_balances w ON w.wallet_id = t.wallet_id
            LEFT JOIN categories c ON c.category_id = t.category_id
            LEFT JOIN people p ON p.person_id = t.payer_id
            \(condition) ORDER BY \(order) LIMIT ?
            """
        let reader = StoreRowReader(path: path, table: "transactions")
        let rows = try Row.fetchAll(database, sql: sql, arguments: arguments + [limit])
        let transactions = try rows.map { row throws(StoreError) in try reader.transaction(row) }
        let details = try RowDetails(database, of: transactions, path: path)
        return try zip(rows, transactions).map { row, transaction throws(StoreError) in
            return TransactionRow(
                transaction: transaction, walletName: try reader.column(row, "wallet_name", as: String?.self) ?? "",
                categoryName: try reader.column(row, "category_name"), payerName: try reader.column(row, "payer_name"),
                note: try reader.note(row, searchText: details.notes[transaction.sequenceNumber]),
                tags: details.tags[transaction.transactionID] ?? [], split: details.shares[transaction.transactionID] ?? [])
        }
    }

    /// The totals per business date, kind and currency of what `query` selects (its order, page
    /// size and cursor aside), newest date first: the headers of a list grouped by day.
    public func dayTotals(_ query: TransactionQuery) throws(StoreError) -> [DayTotal] {
        let filter = try TransactionSQLFilter(query)
        let sql = """
            SELECT t.date AS date, t.kind AS kind, t.currency AS currency, SUM(t.amount) AS total, COUNT(*) AS count
            FROM \(filter.source) \(filter.whereClause) GROUP BY t.date, t.kind, t.currency ORDER BY t.date DESC, t.kind, t.currency
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
struct TransactionSQLFilter {
    private(set) var conditions: [String] = []
    private(set) var arguments: StatementArguments = []
    /// The tables a query reads: the transactions, or with a text, the search index's matches
    /// first (so a search costs its matches, not a scan of every transaction in order).
    private(set) var source = "transactions t"

    /// - Parameter openTransactions: for ``TransactionQuery/settled``, the live shared
    ///   transactions with a share still open (the debt read model's); `nil` refuses that filter.
    init(_ query: TransactionQuery, openTransactions: [TransactionID]? = nil) throws(StoreError) {
        if let settled = query.settled {
            guard let openTransactions else {
                throw .invalidQuery(reason: "the settled / pending filter reads the debt read model: only a page of transactions through the ledger takes it, not totals or reports")
            }
            // The ids as upper-case hex (SQLite's hex()) in one JSON argument: O(open
            // transactions) per query, whatever their number.
            let hexIDs = openTransactions.map { id in id.storeValue.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined() }
            let list = "[" + hexIDs.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let open = "hex(t.transaction_id) IN (SELECT value FROM json_each(?))"
            if settled {
                add("EXISTS (SELECT 1 FROM transaction_shares x WHERE x.transaction_id = t.transaction_id) AND NOT \(open)", [list])
            } else {
                add(open, [list])
            }
        }
        if let text = query.text {
            let match = try Self.matchExpression(text)
            source = "transaction_search s CROSS JOIN transactions t ON t.transaction_id = s.transaction_id"
            add("transaction_search MATCH ?", [match])
        }
        if let (condition, values) = Self.visibility(to: query.viewer, of: "t") { add(condition, values) }
        add(column: "t.wallet_id", in: query.walletIDs.map(\.storeValue))
        add(column: "t.category_id", in: query.categoryIDs.map(\.storeValue))
        add(column: "t.payer_id", in: query.payers.map(\.storeValue))
        add(column: "t.kind", in: query.kinds.map { Int64($0.rawValue) })
        if let shared = query.shared {
            add("\(shared ? "" : "NOT ")EXISTS (SELECT 1 FROM transaction_shares x WHERE x.transaction_id = t.transaction_id)", [])
        }
        if !query.tags.isEmpty {
            add("t.transaction_id IN (SELECT transaction_id FROM transaction_tags WHERE tag IN (\(Self.placeholders(query.tags.count))))",
                StatementArguments(query.tags))
        }
        if !query.people.isEmpty {
            let people = query.people.map(\.storeValue)
            let list = Self.placeholders(people.count)
            add("(t.payer_id IN (\(list)) OR t.transaction_id IN (SELECT transaction_id FROM transaction_shares WHERE person_id IN (\(list))))",
                StatementArguments(people + people))
        }
        if let dates = query.dates {
            add("t.date BETWEEN ? AND ?", [StoreRowWriter.day(dates.lowerBound), StoreRowWriter.day(dates.upperBound)])
        }
        if let units = query.minorUnits { add("t.amount BETWEEN ? AND ?", [units.lowerBound, units.upperBound]) }
        if let deletions = query.deletedWithin {
            // Deleted rows only (a live row has no deletion time), through the deletion index.
            add("t.deleted_at IS NOT NULL AND t.deleted_at BETWEEN ? AND ?",
                [deletions.lowerBound.millisecondsSinceEpoch, deletions.upperBound.millisecondsSinceEpoch])
        } else if query.order == .recentlyDeletedFirst {
            add("t.deleted_at IS NOT NULL", [])
        }
        switch query.deleted {
        case .excluded where query.deletedWithin == nil && query.order != .recentlyDeletedFirst: add("t.is_live = 1", [])
        case .excluded, .included: break
        case .only: add("t.is_live = 0", [])
        }
    }

    /// The filter of `query` over the monthly aggregate (`month_totals t`: live transactions
    /// summed per viewer, month, wallet, category, kind and currency; the viewer's cells), or `nil` when the query asks for
    /// more than it keeps: payers, people, shared or personal, tags, a text, amounts, deleted rows, or dates that
    /// are not whole months.
    init?(monthsOf query: TransactionQuery) {
        guard query.payers.isEmpty, query.people.isEmpty, query.tags.isEmpty, query.text == nil, query.minorUnits == nil, query.shared == nil, query.settled == nil,
              query.deleted == .excluded, query.deletedWithin == nil, query.order != .recentlyDeletedFirst
        else { return nil }
        source = "month_totals t"
        add("t.viewer = ?", [query.viewer.person?.storeValue ?? StoreSchema.householdViewer])
        if let dates = query.dates {
            guard dates.lowerBound == dates.lowerBound.startOfMonth, dates.upperBound == dates.upperBound.endOfMonth else { return nil }
            add("t.month BETWEEN ? AND ?", [StoreRowWriter.day(dates.lowerBound) / 100, StoreRowWriter.day(dates.upperBound) / 100])
        }
        add(column: "t.wallet_id", in: query.walletIDs.map(\.storeValue))
        add(column: "t.category_id", in: query.categoryIDs.map(\.storeValue))
        add(column: "t.kind", in: query.kinds.map { Int64($0.rawValue) })
    }

    /// The rows of `transactions` (as `table`) that `viewer` sees (G7, `Viewer.sees`): paid by
    /// them, or shared with them; `nil` for `Viewer.audit`, who sees every row. The share is
    /// looked up by its primary key per row, never gathered first. The one SQL form of the rule
    /// (lists, reports, statements).
    static func visibility(to viewer: Viewer, of table: String) -> (String, StatementArguments)? {
        guard let person = viewer.person else { return nil }
        let shared = "EXISTS (SELECT 1 FROM transaction_shares v WHERE v.transaction_id = \(table).transaction_id AND v.person_id = ?)"
        return ("(\(table).payer_id = ? OR \(shared))", [person.storeValue, person.storeValue])
    }

    /// An FTS5 query for a search box's text: every word must start a word of the note or
    /// tags. Words are quoted (so nothing typed is FTS5 syntax) and end with `*` (a prefix).
    /// - Throws: ``StoreError/invalidQuery(reason:)`` for a text without a letter or digit.
    static func matchExpression(_ text: String) throws(StoreError) -> String {
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        guard !words.isEmpty else {
            throw .invalidQuery(reason: "a search text needs a letter or a digit, not \"\(text)\"")
        }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }

    mutating func add(_ condition: String, _ values: StatementArguments) {
        conditions.append(condition)
        arguments += values
    }

    private mutating func add(column: String, in values: [some DatabaseValueConvertible]) {
        guard !values.isEmpty else { return }
        add("\(column) IN (\(Self.placeholders(values.count)))", StatementArguments(values))
    }

    var whereClause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }
}

extension TransactionQuery.Order {
    private var column: String {
        switch self {
        case .newestFirst, .oldestFirst, .byCategory: "t.date"
        case .largestFirst, .smallestFirst: "t.amount"
        case .recentlyDeletedFirst: "t.deleted_at"
        }
    }

    private var isDescending: Bool { self != .oldestFirst && self != .smallestFirst }

    /// The category's name a list by category sorts on (`c`: the `categories` row joined).
    private static let categoryName = "COALESCE(c.name, '')"

    var orderBy: String {
        let direction = isDescending ? "DESC" : "ASC"
        let byKey = "\(column) \(direction), t.sequence \(direction)"
        return self == .byCategory ? "\(Self.categoryName), t.category_id, " + byKey : byKey
    }

    /// The rows after `cursor` in this order (a cursor of this order: ``requirePage(limit:after:)``).
    func after(_ cursor: TransactionCursor) -> (String, StatementArguments) {
        let (condition, values) = Self.keyset(after: cursor, key: column, sequence: "t.sequence", descending: isDescending)
        guard let category = cursor.category else { return (condition, values) }
        // A later category, or the same one and a later row in it.
        let key = "(\(Self.categoryName), t.category_id)"
        let categoryValues: StatementArguments = [category.name, category.id.storeValue]
        return ("(\(key) > (?, ?) OR (\(key) = (?, ?) AND \(condition)))", categoryValues + categoryValues + values)
    }

    /// The keyset condition of a list ordered by (`key`, `sequence`): the rows strictly after
    /// the cursor's, in the list's direction.
    static func keyset(after cursor: TransactionCursor, key: String, sequence: String, descending: Bool) -> (String, StatementArguments) {
        // A row value: SQLite uses it as one index range, so a page costs the same at any depth
        // (the equivalent `key < ? OR (key = ? AND ...)` read every row before the cursor).
        let comparison = descending ? "<" : ">"
        return ("(\(key), \(sequence)) \(comparison) (?, ?)", [cursor.key, Int64(bitPattern: cursor.sequenceNumber)])
    }

    /// Refuses a page size outside 1...``TransactionQuery/limitMax`` and a cursor made for
    /// another order.
    func requirePage(limit: Int, after cursor: TransactionCursor?) throws(StoreError) {
        guard (1...TransactionQuery.limitMax).contains(limit) else {
            throw .invalidQuery(reason: "a page holds 1...\(TransactionQuery.limitMax) rows, not \(limit)")
        }
        if let cursor, cursor.order != self || (cursor.category != nil) != (self == .byCategory) {
            throw .invalidQuery(reason: "the cursor \(cursor) continues a list in order \(cursor.order.rawValue), not \(rawValue)")
        }
    }

    /// The cursor of the page that ends with `row`.
    func cursor(after row: TransactionRow) -> TransactionCursor {
        let transaction = row.transaction
        let key = switch self {
        case .newestFirst, .oldestFirst, .byCategory: StoreRowWriter.day(transaction.date)
        case .largestFirst, .smallestFirst: transaction.amount.minorUnits
        case .recentlyDeletedFirst: transaction.deletedAt?.millisecondsSinceEpoch ?? 0  // only deleted rows are in this order
        }
        let category = self == .byCategory ? TransactionCursor.Category(name: row.categoryName ?? "", id: transaction.categoryID) : nil
        return TransactionCursor(order: self, key: key, sequenceNumber: transaction.sequenceNumber, category: category)
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
    public func averageMonthlySpending(months: Int, endingWith last: YearMonth, _ query: TransactionQuery) throws(StoreError) -> [Money] {
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

    /// Totals per pay period, category, kind and currency of what `query` selects within
    /// `periods` (B1: the budget's periods, which the engine knows; transactions outside every
    /// period are left out), one grouped SQL query. Ordered like ``categoryTotals(byMonth:)``.
    /// - Throws: ``StoreError/invalidQuery(reason:)`` for no periods or more than 1,000.
    public func categoryTotals(byPeriod periods: [PayPeriod], _ query: TransactionQuery) throws(StoreError) -> [PeriodTotal] {
        let periods = periods.sorted()
        guard let first = periods.first, let last = periods.last, periods.count <= TransactionQuery.limitMax else {
            throw .invalidQuery(reason: "a report per pay period needs 1...\(TransactionQuery.limitMax) periods, not \(periods.count)")
        }
        let from = max(first.start, query.dates?.lowerBound ?? first.start)
        let through = min(last.end, query.dates?.upperBound ?? last.end)
        guard from <= through else { return [] }  // the query's dates lie outside every period
        var range = query
        range.dates = from...through
        let cases = periods.indices.map { "WHEN t.date BETWEEN ? AND ? THEN \($0)" }.joined(separator: " ")
        let bounds = periods.flatMap { [StoreRowWriter.day($0.start), StoreRowWriter.day($0.end)] }
        let filter = try TransactionSQLFilter(range)
        return try spanTotals(filter, byCategory: true, span: ("CASE \(cases) END", StatementArguments(bounds)), count: "COUNT(*)") { index throws(StoreError) in
            guard let period = Int(exactly: index).flatMap({ periods.indices.contains($0) ? periods[$0] : nil }) else {
                throw .invalidRow(path: path, table: "transactions", reason: "pay period \(index)")
            }
            return period
        }
    }

    /// Per month: from the monthly aggregate (`month_totals`, O(months x categories)) when the
    /// query filters only by wallet, category, kind and whole months; else from the rows.
    private func monthTotals(_ query: TransactionQuery, byCategory: Bool) throws(StoreError) -> [MonthTotal] {
        let decode = { (month: Int64) throws(StoreError) -> YearMonth in
            guard let yearMonth = try? YearMonth(year: Int(month / 100), month: Int(month % 100)) else {
                throw .invalidRow(path: self.path, table: "transactions", reason: "month \(month)")
            }
            return yearMonth
        }
        if let monthly = TransactionSQLFilter(monthsOf: query) {
            return try spanTotals(monthly, byCategory: byCategory, span: ("t.month", []), count: "SUM(t.count)", decode)
        }
        return try spanTotals(try TransactionSQLFilter(query), byCategory: byCategory, span: ("t.date / 100", []), count: "COUNT(*)", decode)
    }

    /// Totals grouped by a span of dates (`span`: an SQL expression giving an integer, and its
    /// arguments), then by category when asked, kind and currency, over what `filter` selects.
    private func spanTotals<Span>(
        _ filter: TransactionSQLFilter, byCategory: Bool, span: (sql: String, arguments: StatementArguments), count: String,
        _ decode: (Int64) throws(StoreError) -> Span
    ) throws(StoreError) -> [SpanTotal<Span>] {
        var filter = filter
        filter.add("span IS NOT NULL", [])
        let category = byCategory ? "t.category_id, c.name AS category_name," : "NULL AS category_id, NULL AS category_name,"
        let group = byCategory ? "span, t.category_id, t.kind, t.currency" : "span, t.kind, t.currency"
        let order = byCategory ? "span, c.name, t.category_id, t.kind, t.currency" : "span, t.kind, t.currency"
        // SUM of 64-bit amounts: SQLite raises "integer overflow" rather than wrap, which reads
        // as a database error, never a wrong total.
        let sql = """
            SELECT \(span.sql) AS span, \(category) t.kind AS kind, t.currency AS currency,
                SUM(t.amount) AS total, \(count) AS count
            FROM \(filter.source) LEFT JOIN categories c ON c.category_id = t.category_id
            \(filter.whereClause) GROUP BY \(group) ORDER BY \(order)
            """
        return try read { database in
            let reader = StoreRowReader(path: path, table: "transactions")
            return try Row.fetchAll(database, sql: sql, arguments: span.arguments + filter.arguments).map { row in
                SpanTotal(
                    span: try decode(try reader.column(row, "span")), categoryID: byCategory ? try reader.id(row, "category_id") : nil,
                    categoryName: try reader.column(row, "category_name"), kind: try reader.kind(row),
                    total: try reader.money(row, amount: "total", currency: "currency"), count: try reader.column(row, "count"))
            }
        }
    }
}

/// What a page's rows show beside their columns, read in three indexed queries per page: the
/// notes (from the search index), the tags and the split with the people's names.
struct RowDetails {
    private(set) var notes: [UInt64: String] = [:]
    private(set) var tags: [TransactionID: [String]] = [:]
    private(set) var shares: [TransactionID: [SplitShare]] = [:]

    /// Runs inside ``LedgerStore/read(_:)``, which reports any error as a ``StoreError``.
    init(_ database: Database, of transactions: [StoredTransaction], path: String) throws {
        guard !transactions.isEmpty else { return }
        let list = TransactionSQLFilter.placeholders(transactions.count)
        let ids = StatementArguments(transactions.map(\.transactionID.storeValue))
        let byID = Dictionary(transactions.map { ($0.transactionID, $0) }, uniquingKeysWith: { first, _ in first })
        let reader = StoreRowReader(path: path, table: "transaction details")
        let sequences = StatementArguments(transactions.map { Int64(bitPattern: $0.sequenceNumber) })
        for row in try Row.fetchAll(database, sql: "SELECT rowid, note FROM transaction_search WHERE rowid IN (\(list)) AND note IS NOT NULL", arguments: sequences) {
            notes[try reader.sequenceNumber(row, "rowid")] = try reader.column(row, "note", as: String.self)
        }
        for row in try Row.fetchAll(database, sql: """
            SELECT transaction_id, tag FROM transaction_tags WHERE transaction_id IN (\(list)) ORDER BY transaction_id, position
            """, arguments: ids) {
            tags[try reader.id(row, "transaction_id"), default: []].append(try reader.column(row, "tag"))
        }
        for row in try Row.fetchAll(database, sql: """
            SELECT s.transaction_id, s.person_id, s.amount, p.name FROM transaction_shares s
            LEFT JOIN people p ON p.person_id = s.person_id
            WHERE s.transaction_id IN (\(list)) ORDER BY s.transaction_id, s.position
            """, arguments: ids) {
            let id: TransactionID = try reader.id(row, "transaction_id")
            guard let transaction = byID[id] else { continue }
            let units: Int64 = try reader.column(row, "amount")
            shares[id, default: []].append(SplitShare(
                person: try reader.id(row, "person_id"), name: try reader.column(row, "name"),
                amount: Money(minorUnits: units, currency: transaction.amount.currency)))
        }
    }
}
