import Foundation
import GRDB
import TallyModel

extension StorePlans {
    /// A change to the store to try on the copy: an index to create (or none, for a rewrite).
    struct Proposal: CustomStringConvertible {
        let name: String
        let ddl: String?
        var description: String { name }
    }

    /// The store's own SQL for each issue-15 measurement, with parameters of the run's plan
    /// (the first wallet, groceries, June 2025, "Migros", "notary"), then the queries that
    /// fill in a page's rows.
    func storeProbes() throws -> [Probe] {
        let wallet = plan.wallets[0].description
        let groceries = plan.expenseCategories[0].description
        let june = (20_250_601, 20_250_630)
        let secondQuarter = (20_250_401, 20_250_630)
        let walletCursor = try cursor(after: 50, conditions: ["t.wallet_id IN (?)"], [wallet])
        let deepCursor = try cursor(after: 99 * 50, conditions: [], [])
        let deepWalletCursor = try cursor(after: 99 * 50, conditions: ["t.wallet_id IN (?)"], [wallet])
        return [
            Probe(name: "wallet page", sql: Self.pageSQL(["t.wallet_id IN (?)", "t.is_live = 1"]), arguments: [wallet]),
            Probe(name: "category page", sql: Self.pageSQL(["t.category_id IN (?)", "t.is_live = 1"]), arguments: [groceries]),
            Probe(name: "month page", sql: Self.pageSQL(["t.date BETWEEN ? AND ?", "t.is_live = 1"]), arguments: [june.0, june.1]),
            Probe(
                name: "combined page",
                sql: Self.pageSQL(["t.wallet_id IN (?)", "t.category_id IN (?)", "t.date BETWEEN ? AND ?", "t.amount BETWEEN ? AND ?", "t.is_live = 1"]),
                arguments: [wallet, groceries, secondQuarter.0, secondQuarter.1, 1_000, 6_000]),
            Probe(name: "common word search (Migros)", sql: Self.pageSQL(["transaction_search MATCH ?", "t.is_live = 1"], source: Self.searchSource), arguments: ["\"Migros\"*"]),
            Probe(name: "rare word search (notary)", sql: Self.pageSQL(["transaction_search MATCH ?", "t.is_live = 1"], source: Self.searchSource), arguments: ["\"notary\"*"]),
            Probe(name: "wallet page 2", sql: Self.pageSQL(["t.wallet_id IN (?)", "t.is_live = 1", Self.afterCursor]),
                  arguments: [wallet, walletCursor.date, walletCursor.date, walletCursor.sequence]),
            Probe(name: "page 100 of all", sql: Self.pageSQL(["t.is_live = 1", Self.afterCursor]),
                  arguments: [deepCursor.date, deepCursor.date, deepCursor.sequence]),
            Probe(name: "page 100 of a wallet", sql: Self.pageSQL(["t.wallet_id IN (?)", "t.is_live = 1", Self.afterCursor]),
                  arguments: [wallet, deepWalletCursor.date, deepWalletCursor.date, deepWalletCursor.sequence]),
            Probe(name: "category x month report, 12 months", sql: Self.reportSQL, arguments: [20_240_701, 20_250_630]),
        ] + (try detailProbes(walletID: wallet))
    }

    /// The three queries `RowDetails` runs for the rows of a wallet's first page: notes, tags
    /// and split.
    private func detailProbes(walletID: String) throws -> [Probe] {
        let rows = try pool.read { database in
            try Row.fetchAll(database, sql: Self.pageSQL(["t.wallet_id IN (?)", "t.is_live = 1"]), arguments: [walletID])
        }
        let ids = StatementArguments(rows.prefix(ListQuery.pageRows).map { row -> String in row["transaction_id"] })
        let sequences = StatementArguments(rows.prefix(ListQuery.pageRows).map { row -> Int64 in row["sequence"] })
        let list = Array(repeating: "?", count: min(rows.count, ListQuery.pageRows)).joined(separator: ", ")
        return [
            Probe(name: "page details: notes of the wallet page's rows",
                  sql: "SELECT rowid, note FROM transaction_search WHERE rowid IN (\(list)) AND note IS NOT NULL", arguments: sequences),
            Probe(name: "page details: tags", sql: """
                SELECT transaction_id, tag FROM transaction_tags WHERE transaction_id IN (\(list)) ORDER BY transaction_id, position
                """, arguments: ids),
            Probe(name: "page details: split", sql: """
                SELECT s.transaction_id, s.person_id, s.amount, p.name FROM transaction_shares s
                LEFT JOIN people p ON p.person_id = s.person_id
                WHERE s.transaction_id IN (\(list)) ORDER BY s.transaction_id, s.position
                """, arguments: ids),
        ]
    }

    /// Indexes and rewrites to try, each with the probes it should speed up, in this order (an
    /// index stays on the copy for the proposals after it).
    func proposals() throws -> [(Proposal, [Probe])] {
        let wallet = plan.wallets[0].description
        let cash = plan.wallets[3].description
        let groceries = plan.expenseCategories[0].description
        let home = plan.expenseCategories[6].description
        let deepCursor = try cursor(after: 99 * 50, conditions: [], [])
        let deepWalletCursor = try cursor(after: 99 * 50, conditions: ["t.wallet_id IN (?)"], [wallet])
        let rowValueCursor = "(t.date, t.sequence) < (?, ?)"
        let combined = ["t.wallet_id IN (?)", "t.category_id IN (?)", "t.date BETWEEN ? AND ?", "t.amount BETWEEN ? AND ?", "t.is_live = 1"]
        let search = Self.pageSQL(["transaction_search MATCH ?", "t.is_live = 1"], source: Self.searchSource)
        return [
            (Proposal(name: "keyset condition as a row value, `(t.date, t.sequence) < (?, ?)`", ddl: nil), [
                Probe(name: "page 100 of all", sql: Self.pageSQL(["t.is_live = 1", rowValueCursor]), arguments: [deepCursor.date, deepCursor.sequence]),
                Probe(name: "page 100 of a wallet", sql: Self.pageSQL(["t.wallet_id IN (?)", "t.is_live = 1", rowValueCursor]),
                      arguments: [wallet, deepWalletCursor.date, deepWalletCursor.sequence]),
            ]),
            (Proposal(name: "a combined filter whose rows are rare: cash + home + Q2 2025 + CHF 10-60, as the store has it", ddl: nil), [
                Probe(name: "combined page (cash, home)", sql: Self.pageSQL(combined), arguments: [cash, home, 20_250_401, 20_250_630, 1_000, 6_000]),
                Probe(name: "combined page (first wallet, groceries)", sql: Self.pageSQL(combined),
                      arguments: [wallet, groceries, 20_250_401, 20_250_630, 1_000, 6_000]),
            ]),
            (Proposal(
                name: "an index that answers category + wallet + dates and checks amount and liveness without the table",
                ddl: "CREATE INDEX transactions_by_category_wallet ON transactions (category_id, wallet_id, date, sequence, amount, is_live)"), [
                Probe(name: "combined page (cash, home)", sql: Self.pageSQL(combined), arguments: [cash, home, 20_250_401, 20_250_630, 1_000, 6_000]),
                Probe(name: "combined page (first wallet, groceries)", sql: Self.pageSQL(combined),
                      arguments: [wallet, groceries, 20_250_401, 20_250_630, 1_000, 6_000]),
            ]),
            (Proposal(name: "a search ordered by recording (the FTS rowid = sequence), newest recorded first", ddl: nil), [
                Probe(name: "common word search (Migros), rowid order",
                      sql: search.replacingOccurrences(of: "ORDER BY t.date DESC, t.sequence DESC", with: "ORDER BY s.rowid DESC"),
                      arguments: ["\"Migros\"*"]),
                Probe(name: "the matches alone: SELECT COUNT(*) ... MATCH (Migros)",
                      sql: "SELECT COUNT(*) FROM transaction_search WHERE transaction_search MATCH ?", arguments: ["\"Migros\"*"]),
            ]),
            (Proposal(
                name: "the business date kept in the search table (UNINDEXED), so that the sort by date reads the matches "
                    + "there and only the page's 51 rows are joined (a deleted transaction would have to leave the table)",
                ddl: """
                    CREATE VIRTUAL TABLE search_by_date USING fts5(
                        note, tags, transaction_id UNINDEXED, day UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
                    INSERT INTO search_by_date (rowid, note, tags, transaction_id, day)
                        SELECT s.rowid, s.note, s.tags, s.transaction_id, t.date
                        FROM transaction_search s JOIN transactions t ON t.transaction_id = s.transaction_id
                    """), [
                Probe(name: "common word search (Migros), date order from the search table", sql: """
                    SELECT t.*, w.name AS wallet_name, c.name AS category_name, p.name AS payer_name
                    FROM (SELECT transaction_id FROM search_by_date WHERE search_by_date MATCH ? ORDER BY day DESC, rowid DESC LIMIT 51) m
                    CROSS JOIN transactions t ON t.transaction_id = m.transaction_id
                    LEFT JOIN wallet_balances w ON w.wallet_id = t.wallet_id
                    LEFT JOIN categories c ON c.category_id = t.category_id
                    LEFT JOIN people p ON p.person_id = t.payer_id
                    WHERE t.is_live = 1 ORDER BY t.date DESC, t.sequence DESC
                    """, arguments: ["\"Migros\"*"]),
            ]),
            (Proposal(
                name: "covering index for the report",
                ddl: "CREATE INDEX transactions_by_date_report ON transactions (date, is_live, category_id, kind, currency, amount)"), [
                Probe(name: "category x month report, 12 months", sql: Self.reportSQL, arguments: [20_240_701, 20_250_630]),
            ]),
            (Proposal(
                name: "totals kept per month, wallet, category, kind and currency (a table the store would update on each commit; "
                    + "filled here from the transactions)",
                ddl: """
                    CREATE TABLE month_totals AS
                        SELECT date / 100 AS month, wallet_id, category_id, kind, currency, SUM(amount) AS total, COUNT(*) AS count
                        FROM transactions WHERE is_live = 1 GROUP BY 1, 2, 3, 4, 5;
                    CREATE UNIQUE INDEX month_totals_key ON month_totals (month, wallet_id, category_id, kind, currency)
                    """), [
                Probe(name: "category x month report, 12 months, from the kept totals", sql: """
                    SELECT m.month, m.category_id, c.name AS category_name, m.kind, m.currency, SUM(m.total) AS total, SUM(m.count) AS count
                    FROM month_totals m LEFT JOIN categories c ON c.category_id = m.category_id
                    WHERE m.month BETWEEN ? AND ? GROUP BY m.month, m.category_id, m.kind, m.currency
                    ORDER BY m.month, c.name, m.category_id, m.kind, m.currency
                    """, arguments: [202_407, 202_506]),
            ]),
        ]
    }

    /// The page query of `LedgerStore.transactions(_:)` with `conditions` (in the order
    /// `TransactionFilter` adds them, the cursor last), newest first, 50 rows + 1.
    static func pageSQL(_ conditions: [String], source: String = "transactions t") -> String {
        """
        SELECT t.*, w.name AS wallet_name, c.name AS category_name, p.name AS payer_name
        FROM \(source)
        LEFT JOIN wallet_balances w ON w.wallet_id = t.wallet_id
        LEFT JOIN categories c ON c.category_id = t.category_id
        LEFT JOIN people p ON p.person_id = t.payer_id
        WHERE \(conditions.joined(separator: " AND ")) ORDER BY t.date DESC, t.sequence DESC LIMIT 51
        """
    }

    /// `TransactionFilter`'s source with a text.
    static let searchSource = "transaction_search s CROSS JOIN transactions t ON t.transaction_id = s.transaction_id"

    /// `TransactionQuery.Order.newestFirst.after(_:)`.
    static let afterCursor = "(t.date < ? OR (t.date = ? AND t.sequence < ?))"

    /// `LedgerStore.categoryTotals(byMonth:)` with a date range (live transactions).
    static let reportSQL = """
        SELECT t.date / 100 AS month, t.category_id, c.name AS category_name, t.kind AS kind, t.currency AS currency,
            SUM(t.amount) AS total, COUNT(*) AS count
        FROM transactions t LEFT JOIN categories c ON c.category_id = t.category_id
        WHERE t.date BETWEEN ? AND ? AND t.is_live = 1 GROUP BY month, t.category_id, t.kind, t.currency
        ORDER BY month, c.name, t.category_id, t.kind, t.currency
        """

    /// The keyset cursor (date, sequence) after the first `rows` live rows of a list.
    private func cursor(after rows: Int, conditions: [String], _ arguments: StatementArguments) throws -> (date: Int64, sequence: Int64) {
        let sql = "SELECT t.date, t.sequence FROM transactions t WHERE "
            + (conditions + ["t.is_live = 1"]).joined(separator: " AND ")
            + " ORDER BY t.date DESC, t.sequence DESC LIMIT 1 OFFSET \(rows - 1)"
        guard let row = try pool.read({ database in try Row.fetchOne(database, sql: sql, arguments: arguments) }) else {
            throw ScaleError.damaged("the list has fewer than \(rows) rows")
        }
        return (row[0], row[1])
    }
}
