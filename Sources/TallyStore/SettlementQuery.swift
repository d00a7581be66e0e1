import Foundation
import GRDB
import TallyModel

/// What a list of settlements shows (S6; Flow US-040 "settlement history", Swiff 1.3.1 a
/// person's history): which settlements, in which order, how many, and where the page starts.
/// Made for a viewer (G7): a member sees the settlements they paid or received, never one
/// between two other people. Keyset pages with the cursor of transaction lists
/// (``TransactionCursor``), by business date.
public struct SettlementQuery: Sendable, Hashable {
    /// Which debts a settlement settles.
    public enum Scope: Sendable, Hashable {
        /// Household debts (S5) and every group's.
        case any
        /// Household debts only (no group).
        case household
        /// Only these groups' (S7).
        case groups([GroupID])
    }

    /// Who the list is for (G7).
    public var viewer: Viewer
    /// Only settlements one of these people paid or received (empty: any).
    public var people: [PersonID] = []
    /// Household, groups or both.
    public var scope = Scope.any
    /// Only business dates in this range.
    public var dates: ClosedRange<LocalDate>?
    /// ``TransactionQuery/Order/newestFirst`` (the default) or
    /// ``TransactionQuery/Order/oldestFirst``: by business date, ties by the sequence number
    /// that recorded it.
    public var order = TransactionQuery.Order.newestFirst
    /// Rows per page, 1...``TransactionQuery/limitMax``.
    public var limit = 50
    /// Where the page starts: the ``SettlementPage/next`` of the page before.
    public var after: TransactionCursor?

    /// Every settlement `viewer` sees, newest first, 50 per page.
    public init(visibleTo viewer: Viewer) { self.viewer = viewer }
}

/// One page of settlements.
public struct SettlementPage: Sendable, Hashable {
    /// The rows, in the query's order.
    public let rows: [SettlementRow]
    /// Where the next page starts; `nil` after the last row.
    public let next: TransactionCursor?
}

/// A settlement as a list row shows it (S6). Its note is a personal text (P1) and is not in
/// the store: the debt read model's settlement history has it.
public struct SettlementRow: Sendable, Hashable {
    /// The settlement.
    public let settlementID: SettlementID
    /// Who paid.
    public let from: PersonID
    /// Their display name (redacted for a forgotten person, P3); `nil` when unknown.
    public let fromName: String?
    /// Who received.
    public let to: PersonID
    /// Their display name, as ``fromName``.
    public let toName: String?
    /// The amount paid.
    public let amount: Money
    /// The business date.
    public let date: LocalDate
    /// The group whose balances it settles; `nil` for household debts.
    public let groupID: GroupID?
    /// Whether paying more than owed was intended (S6).
    public let isAdvance: Bool
    /// How it was paid, as entered.
    public let paymentMethod: String?
    /// The sequence number of the event that recorded it.
    public let sequenceNumber: UInt64
}

extension LedgerStore {
    /// One page of the settlements `query` selects, with both people's names: one indexed SQL
    /// query, O(page), at any depth (keyset pagination).
    /// - Throws: ``StoreError/invalidQuery(reason:)`` for an order by amount, a page size outside
    ///   1...``TransactionQuery/limitMax`` or a cursor of another order; otherwise what reading
    ///   the store can throw.
    public func settlements(_ query: SettlementQuery) throws(StoreError) -> SettlementPage {
        guard query.order == .newestFirst || query.order == .oldestFirst else {
            throw .invalidQuery(reason: "settlements run by date: order \(TransactionQuery.Order.newestFirst.rawValue) or \(TransactionQuery.Order.oldestFirst.rawValue), not \(query.order.rawValue)")
        }
        try query.order.requirePage(limit: query.limit, after: query.after)
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let person = query.viewer.person {
            conditions.append("(s.from_id = ? OR s.to_id = ?)")
            arguments += [person.storeValue, person.storeValue]
        }
        if !query.people.isEmpty {
            let people = query.people.map(\.storeValue)
            let list = TransactionSQLFilter.placeholders(people.count)
            conditions.append("(s.from_id IN (\(list)) OR s.to_id IN (\(list)))")
            arguments += StatementArguments(people + people)
        }
        switch query.scope {
        case .any: break
        case .household: conditions.append("s.group_id IS NULL")
        case .groups(let groups) where groups.isEmpty: conditions.append("0")  // no group: nothing
        case .groups(let groups):
            conditions.append("s.group_id IN (\(TransactionSQLFilter.placeholders(groups.count)))")
            arguments += StatementArguments(groups.map(\.storeValue))
        }
        if let dates = query.dates {
            conditions.append("s.date BETWEEN ? AND ?")
            arguments += [StoreRowWriter.day(dates.lowerBound), StoreRowWriter.day(dates.upperBound)]
        }
        let descending = query.order == .newestFirst
        if let cursor = query.after {
            let (condition, values) = TransactionQuery.Order.keyset(after: cursor, key: "s.date", sequence: "s.sequence", descending: descending)
            conditions.append(condition)
            arguments += values
        }
        let direction = descending ? "DESC" : "ASC"
        let sql = """
            SELECT s.*, f.name AS from_name, t.name AS to_name FROM settlements s
            LEFT JOIN people f ON f.person_id = s.from_id
            LEFT JOIN people t ON t.person_id = s.to_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY s.date \(direction), s.sequence \(direction) LIMIT ?
            """
        let rows = try read { database in
            let reader = StoreRowReader(path: path, table: "settlements")
            return try Row.fetchAll(database, sql: sql, arguments: arguments + [query.limit + 1]).map { row throws(StoreError) in
                SettlementRow(
                    settlementID: try reader.id(row, "settlement_id"), from: try reader.id(row, "from_id"),
                    fromName: try reader.column(row, "from_name"), to: try reader.id(row, "to_id"), toName: try reader.column(row, "to_name"),
                    amount: try reader.money(row, amount: "amount", currency: "currency"), date: try reader.date(try reader.column(row, "date")),
                    groupID: try reader.optionalID(row, "group_id"), isAdvance: try reader.column(row, "is_advance"),
                    paymentMethod: try reader.column(row, "payment_method"), sequenceNumber: try reader.sequenceNumber(row, "sequence"))
            }
        }
        let page = Array(rows.prefix(query.limit))
        let next = rows.count > query.limit ? page.last.map {
            TransactionCursor(order: query.order, key: StoreRowWriter.day($0.date), sequenceNumber: $0.sequenceNumber)
        } : nil
        return SettlementPage(rows: page, next: next)
    }
}
