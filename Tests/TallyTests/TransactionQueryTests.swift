import Foundation
@testable import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// Issue 15: transaction pages, day totals and reports from the read-side store, checked
/// against a reference model of the same commands (a plain list filtered and sorted here).
@Suite("Transaction queries and reports (read side)", .serialized)
struct TransactionQueryTests {
    /// A transaction as the reference model keeps it.
    struct Expected: Equatable {
        let id: TransactionID
        let wallet: WalletID
        let category: CategoryID
        let payer: PersonID
        let kind: TransactionKind
        let minorUnits: Int64
        let currency: Currency
        let date: LocalDate
        var isLive: Bool
        let sequenceNumber: UInt64
    }

    /// A household with two wallets (CHF, EUR), two payers, several categories, 120
    /// transactions over three months (some income, some deleted) and a transfer.
    struct Household {
        var s = Scenario()
        var expected: [Expected] = []
        let ledger: Ledger
        let directory: TemporaryDirectory

        init() async throws {
            directory = try TemporaryDirectory("tally-queries")
            ledger = try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: .synchronous))
            try await ledger.execute(s.setup())
            var random = SeededRandom(seed: 15)
            let categories = [s.groceries, s.restaurants]
            for index in 0..<120 {
                let id: TransactionID = s.ids.next()
                let isIncome = index % 10 == 0
                let inEuro = index % 7 == 0
                let date = try Scenario.date("2026-01-01").adding(days: Int64.random(in: 0..<90, using: &random))
                let amount = Int64.random(in: 1...40, using: &random) * 25  // ties on purpose
                let payer = index % 3 == 0 ? s.bob : s.alice
                let category = isIncome ? s.salary : categories[index % 2]
                let entry = TransactionEntry(
                    kind: isIncome ? .income : .expense, amount: inEuro ? Scenario.eur(amount) : Scenario.chf(amount),
                    walletID: inEuro ? s.euroCard : s.joint, categoryID: category, date: date, payer: payer,
                    shared: false, ratioOverride: nil)
                let positions = try await ledger.execute(s.command(.recordTransaction(transactionID: id, entry: entry), by: payer))
                expected.append(Expected(
                    id: id, wallet: entry.walletID, category: category, payer: payer, kind: entry.kind, minorUnits: amount,
                    currency: entry.amount.currency, date: date, isLive: true, sequenceNumber: try #require(positions.first).sequenceNumber))
            }
            for index in stride(from: 5, to: 120, by: 11) {
                try await ledger.execute(s.command(.deleteTransaction(transactionID: expected[index].id)))
                expected[index].isLive = false
            }
            try await ledger.execute(s.command(.recordTransfer(
                transferID: s.ids.next(), fromWalletID: s.joint, toWalletID: s.euroCard, amountSent: Scenario.chf(1_000),
                amountReceived: Scenario.eur(1_050), date: Scenario.date("2026-01-08"), note: nil)))
        }

        /// Every row `query` selects, in its order, by reading page after page.
        func allPages(_ query: TransactionQuery) async throws -> [TransactionRow] {
            let pages = try await TallyTestSupport.allPages(of: query, cursor: \.after, next: \.next) { query in
                try await ledger.transactions(query)
            }
            #expect(pages.dropLast().allSatisfy { $0.rows.count == query.limit }, "only the last page is short")
            return pages.flatMap(\.rows)
        }

        /// What the reference model selects for `query`, in its order.
        func reference(_ query: TransactionQuery) -> [Expected] {
            let selected = expected.filter { row in
                (query.walletIDs.isEmpty || query.walletIDs.contains(row.wallet))
                    && (query.categoryIDs.isEmpty || query.categoryIDs.contains(row.category))
                    && (query.payers.isEmpty || query.payers.contains(row.payer))
                    && (query.kinds.isEmpty || query.kinds.contains(row.kind))
                    && (query.dates.map { $0.contains(row.date) } ?? true)
                    && (query.minorUnits.map { $0.contains(row.minorUnits) } ?? true)
                    && (query.deleted == .included || row.isLive == (query.deleted == .excluded))
            }
            return selected.sorted { a, b in
                switch query.order {
                case .newestFirst: (a.date, a.sequenceNumber) > (b.date, b.sequenceNumber)
                case .oldestFirst: (a.date, a.sequenceNumber) < (b.date, b.sequenceNumber)
                case .largestFirst: (a.minorUnits, a.sequenceNumber) > (b.minorUnits, b.sequenceNumber)
                case .smallestFirst: (a.minorUnits, a.sequenceNumber) < (b.minorUnits, b.sequenceNumber)
                // The reference keeps no deletion times: RecentlyDeletedTests checks this order.
                case .recentlyDeletedFirst: a.sequenceNumber > b.sequenceNumber
                // Swiff 2.3.2: by category name (the three categories' names differ), newest first within one.
                case .byCategory:
                    Scenario.categoryName(a.category) != Scenario.categoryName(b.category)
                        ? Scenario.categoryName(a.category) < Scenario.categoryName(b.category)
                        : (a.date, a.sequenceNumber) > (b.date, b.sequenceNumber)
                }
            }
        }
    }

    static func ids(_ rows: [TransactionRow]) -> [TransactionID] { rows.map(\.transaction.transactionID) }

    @Test("T1-T3: every order and filter, read in pages of 7, lists exactly the reference model's rows in its order (ties broken by sequence), each once")
    func pagesMatchTheReference() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        let s = household.s
        var queries: [TransactionQuery] = []
        for order in TransactionQuery.Order.allCases where order != .recentlyDeletedFirst {
            for deleted in TransactionQuery.Deleted.allCases {
                var query = TransactionQuery(visibleTo: .audit)
                query.order = order
                query.deleted = deleted
                query.limit = 7
                queries.append(query)
            }
        }
        var narrow = TransactionQuery(visibleTo: .audit)
        narrow.walletIDs = [s.joint]
        narrow.categoryIDs = [s.groceries]
        narrow.payers = [s.alice]
        narrow.kinds = [.expense]
        narrow.dates = Scenario.date("2026-01-15")...Scenario.date("2026-02-20")
        narrow.minorUnits = 200...700
        narrow.limit = 3
        queries.append(narrow)
        var month = TransactionQuery(visibleTo: .audit)
        month.restrict(to: try YearMonth(year: 2026, month: 2))
        month.order = .largestFirst
        month.limit = 5
        queries.append(month)
        for query in queries {
            let got = try await household.allPages(query)
            let want = household.reference(query)
            #expect(!want.isEmpty, "\(query): the reference selects something")
            #expect(Self.ids(got) == want.map(\.id), "\(query.order) \(query.deleted): pages differ from the reference")
            #expect(Set(Self.ids(got)).count == got.count, "no row twice")
        }
    }

    @Test("a row carries the wallet, category and payer names; the stored fields equal the command's")
    func rowsCarryNames() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        var query = TransactionQuery(visibleTo: .audit)
        query.limit = TransactionQuery.limitMax
        query.deleted = .included
        let rows = try await household.allPages(query)
        let byID = Dictionary(uniqueKeysWithValues: household.expected.map { ($0.id, $0) })
        for row in rows {
            let expected = try #require(byID[row.transaction.transactionID])
            #expect(row.transaction.amount == Money(minorUnits: expected.minorUnits, currency: expected.currency))
            #expect(row.transaction.date == expected.date && row.transaction.isLive == expected.isLive)
            #expect(row.walletName == (expected.wallet == household.s.joint ? "Joint" : "Euro card"))
            #expect(row.payerName == (expected.payer == household.s.bob ? "Bob" : "Alice"))
            #expect(row.categoryName != nil && row.categoryName?.isEmpty == false)
        }
        #expect(rows.count == household.expected.count)
    }

    @Test("keyset pages: a transaction recorded between two pages neither repeats nor shifts a row of the next page")
    func pagesAreStableUnderWrites() async throws {
        var household = try await Household()
        defer { household.directory.remove() }
        var query = TransactionQuery(visibleTo: .audit)
        query.limit = 10
        let first = try await household.ledger.transactions(query)
        // A new transaction dated after everything: it sorts before the first page.
        let id: TransactionID = household.s.ids.next()
        var entry = household.s.expense(999)
        entry.date = Scenario.date("2026-12-31")
        try await household.ledger.execute(household.s.command(.recordTransaction(transactionID: id, entry: entry)))
        query.after = first.next
        let second = try await household.ledger.transactions(query)
        let want = household.reference(TransactionQuery(visibleTo: .audit))
        #expect(Self.ids(first.rows) + Self.ids(second.rows) == Array(want.prefix(20)).map(\.id))
    }

    @Test("invalid queries are typed errors naming what to change: a page size outside 1...1000, a cursor of another order; cursors print and parse back, other text is no cursor")
    func invalidQueries() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        var query = TransactionQuery(visibleTo: .audit)
        query.limit = 0
        await #expect(throws: LedgerError.invalidQuery("a page holds 1...1000 rows, not 0")) { try await household.ledger.transactions(query) }
        query.limit = 1_001
        await #expect(throws: LedgerError.self) { try await household.ledger.transactions(query) }
        query.limit = 5
        let cursor = try #require(try await household.ledger.transactions(query).next)
        #expect(TransactionCursor(cursor.description) == cursor)
        for text in ["", "date-desc.1", "sideways.1.2", "date-desc.x.2", "date-desc.1.-2", "date-desc.1.2.3"] {
            #expect(TransactionCursor(text) == nil, "\(text)")
        }
        query.order = .largestFirst
        query.after = cursor
        do {
            _ = try await household.ledger.transactions(query)
            Issue.record("a cursor of another order was accepted")
        } catch {
            #expect(error.code == "invalidQuery" && error.message.contains("date-desc") && error.message.contains("amount-desc"), "\(error)")
        }
    }

    @Test("day totals, totals per category and month, per month, and the average monthly spending (N4) equal sums over the reference model")
    func reportsMatchTheReference() async throws {
        let household = try await Household()
        defer { household.directory.remove() }
        let live = household.expected.filter(\.isLive)
        struct Key: Hashable { let month: YearMonth; let category: CategoryID?; let kind: TransactionKind; let currency: Currency }
        var byCategory: [Key: (Int64, Int)] = [:]
        var byMonth: [Key: (Int64, Int)] = [:]
        var byDay: [String: Int64] = [:]
        for row in live {
            let month = row.date.yearMonth
            let category = Key(month: month, category: row.category, kind: row.kind, currency: row.currency)
            byCategory[category] = ((byCategory[category]?.0 ?? 0) + row.minorUnits, (byCategory[category]?.1 ?? 0) + 1)
            let all = Key(month: month, category: nil, kind: row.kind, currency: row.currency)
            byMonth[all] = ((byMonth[all]?.0 ?? 0) + row.minorUnits, (byMonth[all]?.1 ?? 0) + 1)
            byDay["\(row.date) \(row.kind) \(row.currency.code)", default: 0] += row.minorUnits
        }
        let ledger = household.ledger
        let categoryTotals = try await ledger.categoryTotals(byMonth: TransactionQuery(visibleTo: .audit))
        #expect(categoryTotals.count == byCategory.count)
        for total in categoryTotals {
            let key = Key(month: total.month, category: total.categoryID, kind: total.kind, currency: total.total.currency)
            #expect(byCategory[key].map { $0.0 == total.total.minorUnits && $0.1 == total.count } == true, "\(total)")
            #expect(total.categoryName != nil)
        }
        #expect(categoryTotals.map(\.month) == categoryTotals.map(\.month).sorted(), "ordered by month")
        let monthTotals = try await ledger.monthTotals(TransactionQuery(visibleTo: .audit))
        #expect(monthTotals.count == byMonth.count)
        for total in monthTotals {
            let key = Key(month: total.month, category: nil, kind: total.kind, currency: total.total.currency)
            #expect(byMonth[key].map { $0.0 == total.total.minorUnits && $0.1 == total.count } == true, "\(total)")
        }
        let days = try await ledger.dayTotals(TransactionQuery(visibleTo: .audit))
        #expect(days.count == byDay.count)
        for day in days { #expect(byDay["\(day.date) \(day.kind) \(day.total.currency.code)"] == day.total.minorUnits) }
        #expect(days.map(\.date) == days.map(\.date).sorted(by: >), "newest day first")

        // N4: three months ending with March, expenses only, half to even per currency.
        let march = try YearMonth(year: 2026, month: 3)
        let average = try await ledger.averageMonthlySpending(months: 3, endingWith: march, TransactionQuery(visibleTo: .audit))
        for money in average {
            let sum = live.filter { $0.kind == .expense && $0.currency == money.currency && $0.date <= march.lastDay }
                .reduce(Int128(0)) { $0 + Int128($1.minorUnits) }
            #expect(Int128(money.minorUnits) == sum.dividedRoundingHalfEven(by: 3), "\(money)")
        }
        await #expect(throws: LedgerError.self) { try await ledger.averageMonthlySpending(months: 0, endingWith: march, TransactionQuery(visibleTo: .audit)) }
    }

    @Test("reports by month from the monthly aggregate equal the same reports summed from the rows, after edits that move a transaction to another month, category and amount, deletes and restores (T2, T3)")
    func monthlyAggregateMatchesTheRows() async throws {
        var household = try await Household()
        defer { household.directory.remove() }
        let s = household.s
        var february = TransactionQuery(visibleTo: .audit)
        february.walletIDs = [s.joint]
        february.restrict(to: try YearMonth(year: 2026, month: 2))
        func compare(_ label: String) async throws {
            for filter in [TransactionQuery(visibleTo: .audit), february] {
                var rows = filter
                rows.payers = [s.alice, s.bob]  // every payer: the same rows, summed from the transactions table
                #expect(try await household.ledger.categoryTotals(byMonth: filter) == household.ledger.categoryTotals(byMonth: rows), "\(label)")
                #expect(try await household.ledger.monthTotals(filter) == household.ledger.monthTotals(rows), "\(label)")
            }
        }
        try await compare("as recorded")
        let moved = household.expected[1]
        var entry = s.expense(7_777, category: s.restaurants)
        entry.date = Scenario.date("2026-02-14")
        try await household.ledger.execute(household.s.command(.editTransaction(transactionID: moved.id, entry: entry)))
        try await compare("after an edit")
        try await household.ledger.execute(household.s.command(.restoreTransaction(transactionID: household.expected[5].id)))
        try await household.ledger.execute(household.s.command(.deleteTransaction(transactionID: household.expected[2].id)))
        try await compare("after a restore and a delete")
    }

    @Test("B1 reports per pay period: with payday 25 the category totals of the last 4 periods group each transaction in the period from the 25th to the 24th, and equal sums over the reference model")
    func payPeriodReportMatchesTheReference() async throws {
        var household = try await Household()
        defer { household.directory.remove() }
        try await household.ledger.execute(household.s.command(.setPayday(day: 25)))  // Jan 5: the open period is Dec 25 ... Jan 24
        let periods = await household.ledger.payPeriods(last: 4, endingWith: Scenario.date("2026-03-31"))
        #expect(periods.map(\.start) == ["2025-12-25", "2026-01-25", "2026-02-25", "2026-03-25"].map(Scenario.date))
        #expect(periods.map(\.end) == ["2026-01-24", "2026-02-24", "2026-03-24", "2026-04-24"].map(Scenario.date))
        struct Key: Hashable { let start: LocalDate; let category: CategoryID?; let kind: TransactionKind; let currency: Currency }
        var want: [Key: (Int64, Int)] = [:]
        for row in household.expected where row.isLive {
            let period = try #require(periods.first { $0.contains(row.date) })
            let key = Key(start: period.start, category: row.category, kind: row.kind, currency: row.currency)
            want[key] = ((want[key]?.0 ?? 0) + row.minorUnits, (want[key]?.1 ?? 0) + 1)
        }
        let got = try await household.ledger.categoryTotals(byPayPeriod: TransactionQuery(visibleTo: .audit), last: 4, endingWith: Scenario.date("2026-03-31"))
        #expect(got.count == want.count)
        for total in got {
            let key = Key(start: total.period.start, category: total.categoryID, kind: total.kind, currency: total.total.currency)
            #expect(want[key].map { $0.0 == total.total.minorUnits && $0.1 == total.count } == true, "\(total)")
        }
        #expect(got.map(\.period) == got.map(\.period).sorted(), "oldest period first")
        let two = try await household.ledger.categoryTotals(byPayPeriod: TransactionQuery(visibleTo: .audit), last: 2, endingWith: Scenario.date("2026-03-31"))
        #expect(Set(two.map(\.period)).isSubset(of: Set(periods.suffix(2))), "only the periods asked for")
        await #expect(throws: LedgerError.self) {
            try await household.ledger.categoryTotals(byPayPeriod: TransactionQuery(visibleTo: .audit), last: 0, endingWith: Scenario.date("2026-03-31"))
        }
        var outside = TransactionQuery(visibleTo: .audit)
        outside.restrict(to: try YearMonth(year: 2024, month: 1))
        let none = try await household.ledger.categoryTotals(byPayPeriod: outside, last: 4, endingWith: Scenario.date("2026-03-31"))
        #expect(none.isEmpty, "dates outside every period: an empty report, not a trap")
    }
}
