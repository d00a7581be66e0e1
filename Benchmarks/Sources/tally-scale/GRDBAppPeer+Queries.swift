import GRDB
import TallyModel

/// Issue 15 the way the app writes it in plain SQL: a page joins the wallet's, category's and
/// payer's names and reads the note and tags (what a list row shows, as Tally's rows do), in
/// keyset pages ordered by date and rowid (the recording order, as Tally's sequence numbers);
/// a text search joins the FTS5 table; the report groups by month; the balances are observed
/// with `ValueObservation`.
extension GRDBAppPeer: QuerySubject {
    func page(_ query: ListQuery, after cursor: String?) async throws -> ListPage {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        var source = "transactions t"
        if let text = query.text {
            guard let pattern = FTS5Pattern(matchingAllPrefixesIn: text) else { throw ScaleError.damaged("no words in \"\(text)\"") }
            source = "\(Self.searchTable) s JOIN transactions t ON t.rowid = s.rowid"
            conditions.append("\(Self.searchTable) MATCH ?")
            arguments += [pattern]
        }
        if let walletID = query.walletID {
            conditions.append("t.walletID = ?")
            arguments += [walletID.description]
        }
        if let categoryID = query.categoryID {
            conditions.append("t.categoryID = ?")
            arguments += [categoryID.description]
        }
        if let dates = query.dates {
            conditions.append("t.date BETWEEN ? AND ?")
            arguments += [dates.lowerBound.isoString, dates.upperBound.isoString]
        }
        if let units = query.minorUnits {
            conditions.append("t.minorUnits BETWEEN ? AND ?")
            arguments += [units.lowerBound, units.upperBound]
        }
        if let cursor {
            let (date, rowID) = try Self.parse(cursor)
            conditions.append("(t.date < ? OR (t.date = ? AND t.rowid < ?))")
            arguments += [date, date, rowID]
        }
        let sql = """
            SELECT t.rowid AS rowID, t.id, t.kind, t.minorUnits, t.currency, t.date, t.note, t.tags,
                w.name AS walletName, c.name AS categoryName, p.name AS payerName
            FROM \(source)
            LEFT JOIN balances w ON w.walletID = t.walletID
            LEFT JOIN categories c ON c.id = t.categoryID
            LEFT JOIN people p ON p.id = t.payer
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY t.date DESC, t.rowid DESC LIMIT ?
            """
        arguments += [ListQuery.pageRows + 1]
        let found = try await pool.read { [arguments] database in
            try ListRow.fetchAll(database, sql: sql, arguments: arguments)
        }
        let rows = found.prefix(ListQuery.pageRows)
        let next = found.count > ListQuery.pageRows ? rows.last.map { "\($0.date)/\($0.rowID)" } : nil
        return ListPage(rowCount: rows.count, digest: ListPage.digest(rows.map(\.minorUnits)), next: next)
    }

    func categoryMonthReport(_ months: ClosedRange<YearMonth>) async throws -> ReportFigures {
        let sql = """
            SELECT substr(t.date, 1, 7) AS month, t.categoryID, c.name AS categoryName, t.kind, t.currency,
                SUM(t.minorUnits) AS total, COUNT(*) AS count
            FROM transactions t LEFT JOIN categories c ON c.id = t.categoryID
            WHERE t.date BETWEEN ? AND ?
            GROUP BY month, t.categoryID, t.kind, t.currency
            ORDER BY month, c.name, t.categoryID, t.kind, t.currency
            """
        let arguments: StatementArguments = [months.lowerBound.firstDay.isoString, months.upperBound.lastDay.isoString]
        let cells = try await pool.read { database in try ReportCell.fetchAll(database, sql: sql, arguments: arguments) }
        return ReportFigures(cells: cells.count, digest: ListPage.digest(cells.map(\.total)))
    }

    func observeBalances() async throws -> ObservationProbe {
        let balances = ValueObservation.tracking { database in try BalanceRow.fetchAll(database) }.values(in: pool)
        return ObservationProbe(balances) { rows in rows.reduce(Int64(0)) { $0 + $1.minorUnits } }
    }

    /// The mean number of transactions each of `words` matches (for the report; untimed).
    func meanMatches(of words: [String]) async throws -> Double {
        let patterns = try words.map { word in
            guard let pattern = FTS5Pattern(matchingAllPrefixesIn: word) else { throw ScaleError.damaged("no words in \"\(word)\"") }
            return pattern
        }
        let total = try await pool.read { database in
            try patterns.reduce(0) { sum, pattern in
                sum + (try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM \(Self.searchTable) WHERE \(Self.searchTable) MATCH ?", arguments: [pattern]) ?? 0)
            }
        }
        return Double(total) / Double(max(1, words.count))
    }

    /// The date and rowid of a page's last row, printed as `yyyy-mm-dd/rowid`.
    private static func parse(_ cursor: String) throws -> (date: String, rowID: Int64) {
        let parts = cursor.split(separator: "/")
        guard parts.count == 2, let rowID = Int64(parts[1]) else { throw PeerError.invalidCursor(cursor) }
        return (String(parts[0]), rowID)
    }
}

/// A list row as the app decodes it.
struct ListRow: Decodable, FetchableRecord {
    var rowID: Int64
    var id: String
    var kind: String
    var minorUnits: Int64
    var currency: String
    var date: String
    var note: String?
    var tags: [String]
    var walletName: String?
    var categoryName: String?
    var payerName: String?
}

/// A cell of the category x month report.
struct ReportCell: Decodable, FetchableRecord {
    var month: String
    var categoryID: String
    var categoryName: String?
    var kind: String
    var currency: String
    var total: Int64
    var count: Int
}
