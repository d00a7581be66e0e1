import TallyModel
import TallyProjections

/// What a transaction list shows (issue 15): which transactions, in which order, how many, and
/// where the page starts. Every filter narrows; an empty list means "any". It is made for a
/// viewer (G7): a member's query never selects another member's personal transactions.
///
/// Pages are keyset pages: pass the page's ``TransactionPage/next`` as ``after`` for the next
/// one, so a page costs the same at any depth and a transaction recorded meanwhile neither
/// repeats nor skips a row.
@dynamicMemberLookup
public struct TransactionQuery: Sendable, Hashable {
    /// The order of a list; ties are broken by the sequence number of the recording event, in
    /// the same direction, so every order is total and stable.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Newest business date first (the default, an activity list).
        case newestFirst = "date-desc"
        /// Oldest business date first.
        case oldestFirst = "date-asc"
        /// Largest amount first (minor units, whatever the currency).
        case largestFirst = "amount-desc"
        /// Smallest amount first.
        case smallestFirst = "amount-asc"
        /// The latest deletion first (deleted transactions only, T3): "recently deleted" (US-020).
        case recentlyDeletedFirst = "deleted-desc"
        /// By category (Swiff 2.3.2): the category's name as the store has it (a category the
        /// store does not know sorts as an empty name), then the category id, then newest
        /// business date first within a category.
        case byCategory = "category"
    }

    /// Which transactions count by their deleted state (T3).
    public enum Deleted: String, Sendable, Hashable, CaseIterable {
        /// Live transactions only (the default).
        case excluded
        /// Live and deleted ones.
        case included
        /// Deleted ones only: a "recently deleted" list.
        case only
    }

    /// The most rows one page holds.
    public static let limitMax = 1_000

    /// How long a deleted transaction stays in "recently deleted" (Flow US-020), in days of
    /// 24 hours after its deletion's `recordedAt`.
    public static let recentlyDeletedDays: Int64 = 30

    /// Who the list is for (G7): `Viewer/member(_:)` selects only what that person sees
    /// (their personal transactions and the shared ones they pay or share), `Viewer/audit`
    /// everyone's.
    public var viewer: Viewer
    /// Which transactions: wallets, categories, payers, people, shared or personal, tags, kinds,
    /// text and amounts (the one list of filter fields, also what a saved view stores). Each
    /// field reads and writes as the query's own: `query.walletIDs`, `query.minorUnits`.
    public var filter = TransactionFilter()
    /// Only business dates in this range.
    public var dates: ClosedRange<LocalDate>?
    /// Live, deleted or both.
    public var deleted = Deleted.excluded
    /// Shared transactions by the state of their debts (S6; Swiff 1.3.1 history): `false`
    /// (pending) those with a share of someone other than the payer that no settlement covers
    /// yet, `true` (settled) the shared ones without such a share; `nil` any. Whether a share
    /// is covered is in the debt read model, not in the store: pages only
    /// (``LedgerStore/transactions(_:debts:)`` with the debts, as `Ledger.transactions(_:)`
    /// passes them); day totals and reports refuse it.
    public var settled: Bool?
    /// Only transactions deleted (T3) within this range of instants (their deletion's
    /// `recordedAt`, ``StoredTransaction/deletedAt``): deleted ones only, whatever ``deleted``
    /// says.
    public var deletedWithin: ClosedRange<Timestamp>?
    /// The order of the rows.
    public var order = Order.newestFirst
    /// Rows per page, 1...``limitMax``.
    public var limit = 50
    /// Where the page starts: the ``TransactionPage/next`` of the page before.
    public var after: TransactionCursor?

    /// Every live transaction `viewer` sees, newest first, 50 per page.
    public init(visibleTo viewer: Viewer) { self.viewer = viewer }

    /// The transactions `filter` selects that `viewer` sees, newest first, 50 per page.
    public init(_ filter: TransactionFilter, visibleTo viewer: Viewer) {
        self.viewer = viewer
        self.filter = filter
    }

    /// A field of ``filter``, read and written as the query's own (`query.categoryIDs`).
    public subscript<Value>(dynamicMember field: WritableKeyPath<TransactionFilter, Value>) -> Value {
        get { filter[keyPath: field] }
        set { filter[keyPath: field] = newValue }
    }

    /// Only business dates in `month`.
    public mutating func restrict(to month: YearMonth) {
        dates = month.firstDay...month.lastDay
    }

    /// Flow's "Recently deleted" (US-020): the transactions `viewer` sees that were deleted
    /// within ``recentlyDeletedDays`` days before `now` (the host's clock, passed in: the store
    /// reads none), the latest deletion first. A transaction deleted longer ago leaves the list
    /// but is kept (the journal forgets nothing) and can still be restored
    /// (`restoreTransaction`); ``deleted`` `.only` lists it.
    /// - Parameters:
    ///   - now: the instant the list is for.
    ///   - viewer: who the list is for (G7).
    public static func recentlyDeleted(asOf now: Timestamp, visibleTo viewer: Viewer) -> TransactionQuery {
        var query = TransactionQuery(visibleTo: viewer)
        let window = recentlyDeletedDays * 86_400_000
        // Saturating: an instant near the start of time still gives a range (never a trap).
        let (start, overflow) = now.millisecondsSinceEpoch.subtractingReportingOverflow(window)
        query.deleted = .only
        query.deletedWithin = Timestamp(millisecondsSinceEpoch: overflow ? .min : start)...now
        query.order = .recentlyDeletedFirst
        return query
    }
}

/// Where the next page of a ``TransactionQuery`` starts: opaque to a host, printable for a CLI
/// (`--after`), and tied to the order it was made for.
public struct TransactionCursor: Sendable, Hashable, LosslessStringConvertible {
    let order: TransactionQuery.Order
    /// The sort key of the last row: its `yyyymmdd` date, its amount or its deletion time
    /// (milliseconds since 1970).
    let key: Int64
    let sequenceNumber: UInt64
    /// The last row's category name (as the store had it) and id: in order
    /// ``TransactionQuery/Order/byCategory`` only, where `key` is its date.
    let category: Category?

    /// A category as a cursor keeps it: the name is kept, so a rename between two pages moves
    /// no row of the next page.
    struct Category: Sendable, Hashable {
        let name: String
        let id: CategoryID
    }

    init(order: TransactionQuery.Order, key: Int64, sequenceNumber: UInt64, category: Category? = nil) {
        (self.order, self.key, self.sequenceNumber, self.category) = (order, key, sequenceNumber, category)
    }

    /// `<order>.<key>.<sequence>`, and for order `category` `.<category id>.<name as UTF-8 hex>`.
    public var description: String {
        let base = "\(order.rawValue).\(key).\(sequenceNumber)"
        guard let category else { return base }
        return base + ".\(category.id).\(category.name.utf8.map { String($0, radix: 16).leftPadded(to: 2) }.joined())"
    }

    /// Reads a cursor printed by ``description``; `nil` for anything else.
    public init?(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let order = TransactionQuery.Order(rawValue: parts[0]), parts.count == (order == .byCategory ? 5 : 3),
              let key = Int64(parts[1]), let sequenceNumber = UInt64(parts[2])
        else { return nil }
        guard order == .byCategory else {
            self.init(order: order, key: key, sequenceNumber: sequenceNumber)
            return
        }
        let hex = Array(parts[4])
        guard hex.count.isMultiple(of: 2), hex.allSatisfy(\.isHexDigit), let id = try? CategoryID(parsing: parts[3]) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let byte = UInt8(String(hex[index..<index + 2]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        let name = String(decoding: bytes, as: UTF8.self)
        guard Array(name.utf8) == bytes else { return nil }  // not UTF-8
        self.init(order: order, key: key, sequenceNumber: sequenceNumber, category: Category(name: name, id: id))
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// One page of a transaction list.
public struct TransactionPage: Sendable, Hashable {
    /// The rows, in the query's order.
    public let rows: [TransactionRow]
    /// Where the next page starts; `nil` after the last row.
    public let next: TransactionCursor?
}

/// A transaction as a list row shows it: the stored fields and the names a screen prints.
public struct TransactionRow: Sendable, Hashable {
    /// The transaction.
    public let transaction: StoredTransaction
    /// The wallet's name.
    public let walletName: String
    /// The category's name; `nil` for a category the store does not know.
    public let categoryName: String?
    /// The payer's display name (redacted for a forgotten person, P3); `nil` when unknown.
    public let payerName: String?
    /// The note: its owner and text, the text `nil` when the owner was forgotten (P3).
    public let note: PersonalText?
    /// The tags, in the order entered.
    public let tags: [String]
    /// The split of a shared transaction, in share order; empty for a personal one.
    public let split: [SplitShare]
}

/// One person's part of a shared transaction, as a list row shows it.
public struct SplitShare: Sendable, Hashable {
    /// The person.
    public let person: PersonID
    /// Their display name (redacted for a forgotten person, P3); `nil` when unknown.
    public let name: String?
    /// Their part, in the transaction's currency (the parts sum to its amount, S3).
    public let amount: Money
}

/// The totals of one business date, currency and kind in a query's range (a list grouped by day).
public struct DayTotal: Sendable, Hashable {
    public let date: LocalDate
    public let kind: TransactionKind
    /// The sum of the amounts, in their currency.
    public let total: Money
    /// How many transactions.
    public let count: Int
}

/// The total of one span of business dates (a month or a pay period), category (or none: every
/// category), kind and currency: a cell of a spending-by-category report.
public struct SpanTotal<Span: Hashable & Sendable>: Sendable, Hashable {
    /// The month or pay period.
    public let span: Span
    /// The category; `nil` in ``LedgerStore/monthTotals(_:)``, which sums every category.
    public let categoryID: CategoryID?
    /// The category's name, when the store knows it.
    public let categoryName: String?
    public let kind: TransactionKind
    /// The sum of the amounts, in their currency.
    public let total: Money
    /// How many transactions.
    public let count: Int
}

/// A cell of a report per month.
public typealias MonthTotal = SpanTotal<YearMonth>
/// A cell of a report per pay period (B1).
public typealias PeriodTotal = SpanTotal<PayPeriod>

extension SpanTotal where Span == YearMonth {
    /// The month.
    public var month: YearMonth { span }
}

extension SpanTotal where Span == PayPeriod {
    /// The pay period.
    public var period: PayPeriod { span }
}
