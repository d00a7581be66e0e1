import Foundation
import GRDB
import TallyModel
import TallyProjections

/// Which page of a wallet's statement to list: every live movement of one wallet (its
/// transactions and the transfers in and out, W6) by business date, each with the wallet's
/// balance after it, like a bank statement (issue 15).
public struct StatementQuery: Sendable, Hashable {
    /// The wallet.
    public var walletID: WalletID
    /// Only business dates in this range.
    public var dates: ClosedRange<LocalDate>?
    /// ``TransactionQuery/Order/newestFirst`` (the default) or ``TransactionQuery/Order/oldestFirst``.
    public var order = TransactionQuery.Order.newestFirst
    /// Rows per page, 1...``TransactionQuery/limitMax``.
    public var limit = 50
    /// Where the page starts: the ``StatementPage/next`` of the page before.
    public var after: TransactionCursor?
    /// Who the statement is for (G7): a member reads the household's wallets and their own,
    /// and their rows leave out another member's personal transactions (the balance after
    /// each row is still the wallet's, Docs/Privacy.md).
    public var viewer: Viewer

    /// The newest 50 movements of `walletID` that `viewer` sees.
    public init(walletID: WalletID, visibleTo viewer: Viewer) {
        self.walletID = walletID
        self.viewer = viewer
    }
}

/// One page of a wallet's statement.
public struct StatementPage: Sendable, Hashable {
    /// The movements, in the query's order.
    public let rows: [StatementRow]
    /// Where the next page starts; `nil` after the last movement.
    public let next: TransactionCursor?
}

/// One movement of a wallet with the balance after it.
public struct StatementRow: Sendable, Hashable {
    /// What moved the money.
    public enum Movement: Sendable, Hashable {
        /// An income or an expense of the wallet.
        case transaction(TransactionRow)
        /// A transfer out of or into the wallet.
        case transfer(TransferRow)
    }

    /// What moved the money.
    public let movement: Movement
    /// The business date.
    public let date: LocalDate
    /// The sequence number of the event that recorded it (orders a day's movements).
    public let sequenceNumber: UInt64
    /// The change to the wallet's balance as balances report it, in its currency: for an asset
    /// an income or a transfer in adds; for a liability (card, loan, W1) an expense or a
    /// transfer out adds to what is owed. So each row's balance is the previous one plus this.
    public let amount: Money
    /// The wallet's balance after this movement (and every earlier one by date, then
    /// sequence); `nil` for a wallet whose value is observed (W5: its valuation, by default property and investment),
    /// where balance points set the value rather than movements.
    public let balance: Money?
}

/// A transfer as a statement row shows it.
public struct TransferRow: Sendable, Hashable {
    public let transferID: TransferID
    public let fromWalletID: WalletID
    public let fromWalletName: String
    public let toWalletID: WalletID
    public let toWalletName: String
    /// What left the source wallet.
    public let amountSent: Money
    /// What reached the target wallet.
    public let amountReceived: Money
}

extension LedgerStore {
    /// One page of a wallet's statement: its live transactions and transfers by business date
    /// then sequence, each with the running balance. One SQL query for the page (three index
    /// range scans, each limited to the page, merged), one for the details of its transactions,
    /// and for the balance one sum over the first row's day: the balance at the end of that day
    /// (from `balanceAtEndOf`, the engine's read models) less what the day moved after it.
    /// - Parameter balanceAtEndOf: the wallet's balance after every movement up to the end of a
    ///   date, from its opening balance; not asked for an observed wallet (W5), whose rows have
    ///   no balance.
    /// For a member, another member's personal transactions are not rows; the balance after
    /// each row counts them (the sum of what lies between two rows is one more range sum).
    /// - Throws: ``StoreError/invalidQuery(reason:)`` for an order by amount, a page size outside
    ///   1...``TransactionQuery/limitMax``, a cursor of another order or a wallet the store
    ///   does not know or the viewer does not see.
    package func statement(
        _ query: StatementQuery, balanceAtEndOf: (LocalDate) throws(StoreError) -> Money?
    ) throws(StoreError) -> StatementPage {
        guard query.order == .newestFirst || query.order == .oldestFirst else {
            throw .invalidQuery(reason: "a statement runs by date: order \(TransactionQuery.Order.newestFirst.rawValue) or \(TransactionQuery.Order.oldestFirst.rawValue), not \(query.order.rawValue)")
        }
        try query.order.requirePage(limit: query.limit, after: query.after)
        // One read transaction: the page, its rows' details and the day's sum see one commit.
        let (wallet, movements, transactions, transfers, laterThatDay, gaps) = try read { database -> (WalletBalance?, [Movement], [TransactionRow], [TransferRow], Int64, [Int64]) in
            let wallet = try Row.fetchOne(database, sql: "SELECT * FROM wallet_balances WHERE wallet_id = ?", arguments: [query.walletID.storeValue])
                .map { row throws(StoreError) in try StoreRowReader(path: path, table: "wallet_balances").walletBalance(row) }
            guard let wallet, query.viewer.sees(walletOwnedBy: wallet.owner) else { return (nil, [], [], [], 0, []) }
            let movements = try Self.movements(database, query)
            let page = movements.prefix(query.limit)
            let ids = page.compactMap { $0.source == .transaction ? $0.id : nil }
            let transactions = try Self.transactionRows(
                database, path: path, where: "WHERE t.transaction_id IN (\(TransactionSQLFilter.placeholders(ids.count)))",
                orderBy: "t.sequence", limit: ids.count, arguments: StatementArguments(ids))
            let transfers = try Self.transferRows(database, path: path, page.filter { $0.source != .transaction }.map(\.id))
            let later = try page.first.map { try Self.sum(database, wallet: query.walletID, after: ($0.date, $0.sequence), before: ($0.date + 1, .min)) } ?? 0
            // What a member does not see between two rows (another member's personal
            // transactions): still part of the balance after the later row.
            var gaps: [Int64] = []
            if query.viewer.person != nil {
                for (earlier, later) in zip(page, page.dropFirst()) {
                    let (low, high) = query.order == .newestFirst ? (later, earlier) : (earlier, later)
                    gaps.append(try Self.sum(database, wallet: query.walletID, after: (low.date, low.sequence), before: (high.date, high.sequence)))
                }
            }
            return (wallet, movements, transactions, transfers, later, gaps)
        }
        guard let wallet else { throw .invalidQuery(reason: "no wallet \(query.walletID) is open in this ledger and seen by \(query.viewer)") }
        let sign = wallet.kind.movementSign
        let page = Array(movements.prefix(query.limit))
        guard let first = page.first else { return StatementPage(rows: [], next: nil) }
        let byTransaction = Dictionary(transactions.map { ($0.transaction.transactionID.storeValue, $0) }, uniquingKeysWith: { first, _ in first })
        let byTransfer = Dictionary(transfers.map { ($0.transferID.storeValue, $0) }, uniquingKeysWith: { first, _ in first })
        let reader = StoreRowReader(path: path, table: "transactions")
        let date = try reader.date(first.date)
        // The balance after the first row; then each row adds its own movement (oldest first)
        // or the row before takes its movement back (newest first).
        var balance: Int64?
        if wallet.valuation == .tracked, let endOfDay = try balanceAtEndOf(date) {
            balance = try moved(endOfDay.minorUnits, by: laterThatDay, sign: -sign)
        }
        var rows: [StatementRow] = []
        for (index, movement) in page.enumerated() {
            if index > 0, let running = balance {
                let unseen = gaps.isEmpty ? 0 : gaps[index - 1]
                balance = query.order == .newestFirst
                    ? try moved(try moved(running, by: page[index - 1].delta, sign: -sign), by: unseen, sign: -sign)
                    : try moved(try moved(running, by: unseen, sign: sign), by: movement.delta, sign: sign)
            }
            let row: StatementRow.Movement
            if movement.source == .transaction, let transaction = byTransaction[movement.id] {
                row = .transaction(transaction)
            } else if movement.source != .transaction, let transfer = byTransfer[movement.id] {
                row = .transfer(transfer)
            } else {
                throw .invalidRow(path: path, table: "transactions", reason: "\(UUIDValue(bytes: movement.id)?.description ?? "an id") vanished while the page was read")
            }
            let currency = switch row {
            case .transaction(let transaction): transaction.transaction.amount.currency
            case .transfer(let transfer): movement.source == .transferOut ? transfer.amountSent.currency : transfer.amountReceived.currency
            }
            rows.append(StatementRow(
                movement: row, date: try reader.date(movement.date),
                sequenceNumber: UInt64(bitPattern: movement.sequence), amount: Money(minorUnits: try moved(0, by: movement.delta, sign: sign), currency: currency),
                balance: balance.map { Money(minorUnits: $0, currency: currency) }))
        }
        let next = movements.count > query.limit ? page.last.map {
            TransactionCursor(order: query.order, key: $0.date, sequenceNumber: UInt64(bitPattern: $0.sequence))
        } : nil
        return StatementPage(rows: rows, next: next)
    }

    /// `value + sign x delta`; `invalidRow` when that does not fit in 64 bits (G1: a sum is
    /// never wrapped).
    private func moved(_ value: Int64, by delta: Int64, sign: Int64) throws(StoreError) -> Int64 {
        let (scaled, scaledOverflow) = delta.multipliedReportingOverflow(by: sign)
        let (sum, sumOverflow) = value.addingReportingOverflow(scaled)
        guard !scaledOverflow, !sumOverflow else {
            throw .invalidRow(path: path, table: "transactions", reason: "a running balance beyond 64-bit minor units")
        }
        return sum
    }

    /// A movement as the statement's query returns it.
    private struct Movement {
        enum Source: Int64 { case transaction = 0, transferOut = 1, transferIn = 2 }
        let source: Source
        let id: Data
        let date: Int64
        let sequence: Int64
        let delta: Int64
    }

    /// The three sources of a wallet's movements, each a range of an index; `?` is the wallet.
    /// Every movement, whoever sees it: what a balance sums.
    private static let movementSources = [
        "SELECT 0 AS source, transaction_id AS id, date, sequence, CASE kind WHEN 0 THEN amount ELSE -amount END AS delta FROM transactions WHERE wallet_id = ? AND is_live = 1",
        "SELECT 1 AS source, transfer_id AS id, date, sequence, -amount_sent AS delta FROM transfers WHERE from_wallet_id = ? AND is_live = 1",
        "SELECT 2 AS source, transfer_id AS id, date, sequence, amount_received AS delta FROM transfers WHERE to_wallet_id = ? AND is_live = 1",
    ]

    /// Up to `limit + 1` movements after the cursor, in the query's order.
    private static func movements(_ database: Database, _ query: StatementQuery) throws -> [Movement] {
        var condition = ""
        var values: StatementArguments = []
        if let dates = query.dates {
            condition += " AND date BETWEEN ? AND ?"
            values += [StoreRowWriter.day(dates.lowerBound), StoreRowWriter.day(dates.upperBound)]
        }
        let descending = query.order == .newestFirst
        if let cursor = query.after {
            let (keyset, arguments) = TransactionQuery.Order.keyset(after: cursor, key: "date", sequence: "sequence", descending: descending)
            condition += " AND \(keyset)"
            values += arguments
        }
        let order = descending ? "date DESC, sequence DESC" : "date ASC, sequence ASC"
        // The rows a member sees (G7, `Viewer.sees`): the transactions they pay or share.
        var sources = movementSources
        var seen: StatementArguments = []
        if let (condition, values) = TransactionSQLFilter.visibility(to: query.viewer, of: "transactions") {
            sources[0] += " AND \(condition)"
            seen = values
        }
        let branches = sources.map { "SELECT * FROM (\($0)\(condition) ORDER BY \(order) LIMIT ?)" }
        let sql = branches.joined(separator: " UNION ALL ") + " ORDER BY \(order) LIMIT ?"
        var arguments: StatementArguments = []
        for index in branches.indices { arguments += [query.walletID.storeValue] + (index == 0 ? seen : []) + values + [query.limit + 1] }
        arguments += [query.limit + 1]
        return try Row.fetchAll(database, sql: sql, arguments: arguments).map { row in
            guard let source = Movement.Source(rawValue: try row.decode(Int64.self, forColumn: "source")) else {
                throw DatabaseError(message: "unknown movement source")
            }
            return Movement(
                source: source, id: try row.decode(Data.self, forColumn: "id"), date: try row.decode(Int64.self, forColumn: "date"),
                sequence: try row.decode(Int64.self, forColumn: "sequence"), delta: try row.decode(Int64.self, forColumn: "delta"))
        }
    }

    /// What a wallet's movements strictly between two (date, sequence) keys add up to, whoever
    /// sees them (exact: SQLite's SUM of integers, which raises on an overflow rather than wrap).
    private static func sum(_ database: Database, wallet: WalletID, after lower: (Int64, Int64), before upper: (Int64, Int64)) throws -> Int64 {
        let sources = movementSources.map { "\($0) AND (date, sequence) > (?, ?) AND (date, sequence) < (?, ?)" }.joined(separator: " UNION ALL ")
        var arguments: StatementArguments = []
        for _ in movementSources { arguments += [wallet.storeValue, lower.0, lower.1, upper.0, upper.1] }
        return try Int64.fetchOne(database, sql: "SELECT COALESCE(SUM(delta), 0) FROM (\(sources))", arguments: arguments) ?? 0
    }

    private static func transferRows(_ database: Database, path: String, _ ids: [Data]) throws -> [TransferRow] {
        guard !ids.isEmpty else { return [] }
        let reader = StoreRowReader(path: path, table: "transfers")
        return try Row.fetchAll(database, sql: """
            SELECT x.*, f.name AS from_name, t.name AS to_name FROM transfers x
            LEFT JOIN wallet_balances f ON f.wallet_id = x.from_wallet_id
            LEFT JOIN wallet_balances t ON t.wallet_id = x.to_wallet_id
            WHERE x.transfer_id IN (\(TransactionSQLFilter.placeholders(ids.count)))
            """, arguments: StatementArguments(ids)).map { row throws(StoreError) in
            TransferRow(
                transferID: try reader.id(row, "transfer_id"), fromWalletID: try reader.id(row, "from_wallet_id"),
                fromWalletName: try reader.column(row, "from_name", as: String?.self) ?? "",
                toWalletID: try reader.id(row, "to_wallet_id"), toWalletName: try reader.column(row, "to_name", as: String?.self) ?? "",
                amountSent: try reader.money(row, amount: "amount_sent", currency: "currency_sent"),
                amountReceived: try reader.money(row, amount: "amount_received", currency: "currency_received"))
        }
    }
}
