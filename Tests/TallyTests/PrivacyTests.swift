import Synchronization
import Tally
import TallyModel
import TallyStore
import TallyTestSupport
import Testing

/// G7 (Flow TECH-008, Docs/Privacy.md): every read is made for a viewer, and a member never
/// receives another member's personal entries. Each read of a seeded three-member household
/// (``PrivacyHousehold``) is made as Alice, Bob, Carol and the audit, and compared with a
/// reference of the same commands filtered by the rule written again here (``Rule``), never
/// with `Viewer.sees`; each test also checks that the audit sees more than each member, so a
/// filter that does nothing fails.
@Suite("G7: every read made for a viewer", .serialized)
struct PrivacyTests {
    typealias Household = PrivacyHousehold
    typealias Row = PrivacyHousehold.Transaction

    static let alice = Household.alice
    static let bob = Household.bob
    static let carol = Household.carol
    static let dave = Household.dave
    static let members: [Viewer] = [.member(alice), .member(bob), .member(carol)]
    static let viewers: [Viewer] = members + [.audit]
    static let fourMonths = Scenario.date("2026-01-01")...Scenario.date("2026-04-30")
    static let partialRange = Scenario.date("2026-01-15")...Scenario.date("2026-03-10")

    /// G7 written again for the reference: a personal transaction is its payer's, a shared one
    /// its payer's and each sharer's; a wallet with no owner is everyone's, an owned one its
    /// owner's; a recurring item as the transactions it posts; a debt its two people's; an
    /// activity entry its actor's, and everyone's whose view holds all it created or changed
    /// (an undo's or redo's: its target's), judged as the reference is now.
    enum Rule {
        static func sees(_ viewer: Viewer, payer: PersonID, sharers: [PersonID]?) -> Bool {
            guard case .member(let person) = viewer else { return true }
            return person == payer || (sharers ?? []).contains(person)
        }

        static func sees(_ viewer: Viewer, _ transaction: Row) -> Bool { sees(viewer, payer: transaction.payer, sharers: transaction.sharers) }

        static func sees(_ viewer: Viewer, _ template: Household.Template) -> Bool { sees(viewer, payer: template.payer, sharers: template.sharers) }

        static func sees(_ viewer: Viewer, _ wallet: Household.Wallet) -> Bool {
            guard case .member(let person) = viewer, let owner = wallet.owner else { return true }
            return owner == person
        }

        static func sees(_ viewer: Viewer, debtor: PersonID, creditor: PersonID) -> Bool {
            guard case .member(let person) = viewer else { return true }
            return person == debtor || person == creditor
        }

        static func sees(_ viewer: Viewer, _ command: Household.CommandRecord, in household: Household) -> Bool {
            guard case .member(let person) = viewer, person != command.actor else { return true }
            let touches = command.target.flatMap { target in household.commands.first { $0.id == target }?.touches } ?? command.touches
            return touches.allSatisfy { touch in
                switch touch {
                case .transaction(let id): household.transaction(id).map { sees(viewer, $0) } ?? true
                case .template(let id): household.templates.first { $0.id == id }.map { sees(viewer, $0) } ?? true
                case .wallet(let id): household.wallet(id).map { sees(viewer, $0) } ?? true
                case .transfer(let from, let to): [from, to].contains { household.wallet($0).map { sees(viewer, $0) } ?? true }
                case .people(let people): people.contains(person)
                }
            }
        }
    }

    // MARK: Support

    static func household(seed: UInt64) async throws -> (TestLedger, Household) {
        let test = try await TestLedger.make("privacy", durability: .synchronous)
        var household = Household(seed: seed)
        try await household.build(on: test.ledger)
        #expect(household.rejected.count * 5 < household.commands.count, "seed \(seed): most commands are accepted: \(household.rejected)")
        return (test, household)
    }

    static func name(_ viewer: Viewer) -> String {
        switch viewer {
        case .audit: "audit"
        case .member(let person): person == alice ? "Alice" : person == bob ? "Bob" : person == carol ? "Carol" : "\(person)"
        }
    }

    /// What the reference lists for `query`: the rows its viewer sees that pass its filters, in its order.
    static func reference(_ query: TransactionQuery, _ household: Household) -> [Row] {
        Household.sorted(household.transactions.filter { Rule.sees(query.viewer, $0) && Household.matches($0, query) }, query.order)
    }

    /// Every row of `query`, read page after page; only the last page is short.
    static func pages(_ ledger: Ledger, _ query: TransactionQuery, _ label: String) async throws -> [TransactionRow] {
        let pages = try await allPages(of: query, cursor: \.after, next: \.next) { query in try await ledger.transactions(query) }
        #expect(pages.dropLast().allSatisfy { $0.rows.count == query.limit }, "\(label): only the last page is short")
        return pages.flatMap(\.rows)
    }

    static func expectRow(_ row: TransactionRow, _ want: Row, _ label: String) {
        let stored = row.transaction
        #expect(stored.payer == want.payer && stored.walletID == want.walletID && stored.categoryID == want.categoryID
                    && stored.kind == want.kind && stored.amount == Scenario.chf(want.minorUnits) && stored.date == want.date
                    && stored.isLive == want.isLive, "\(label): the fields of \(want.id)")
        #expect(row.note?.text == want.note && row.tags == want.tags, "\(label): note and tags of \(want.id)")
        #expect(Set(row.split.map(\.person)) == Set(want.sharers ?? []), "\(label): the sharers of \(want.id)")
        #expect(row.split.allSatisfy { $0.amount.minorUnits == Household.share(of: $0.person, in: want) }, "\(label): the shares of \(want.id)")
    }

    /// A total and a count.
    struct Sum: Hashable, CustomStringConvertible {
        var total: Int64 = 0
        var count = 0
        var description: String { "\(total)/\(count)" }
    }

    /// A report cell: a span (a date or a month, ISO), a category or none, a kind.
    struct Cell: Hashable, CustomStringConvertible {
        let span: String
        let category: CategoryID?
        let kind: TransactionKind
        var description: String { "\(span) \(category.map { "\($0)".prefix(8) } ?? "-") \(kind)" }
    }

    static func sums(_ rows: [Row], _ cell: (Row) -> Cell) -> [Cell: Sum] {
        var sums: [Cell: Sum] = [:]
        for row in rows where row.isLive {
            sums[cell(row), default: Sum()].total += row.minorUnits
            sums[cell(row), default: Sum()].count += 1
        }
        return sums
    }

    static func cells<Span>(_ totals: [SpanTotal<Span>], _ span: (Span) -> String) -> [Cell: Sum] {
        var cells: [Cell: Sum] = [:]
        for total in totals {
            #expect(total.total.currency == .chf)
            cells[Cell(span: span(total.span), category: total.categoryID, kind: total.kind)] = Sum(total: total.total.minorUnits, count: total.count)
        }
        return cells
    }

    static func cells(_ totals: [DayTotal]) -> [Cell: Sum] {
        Dictionary(uniqueKeysWithValues: totals.map { (Cell(span: $0.date.isoString, category: nil, kind: $0.kind), Sum(total: $0.total.minorUnits, count: $0.count)) })
    }

    static func month(_ cell: Cell) -> Cell { Cell(span: String(cell.span.prefix(7)), category: cell.category, kind: cell.kind) }

    static func byMonth(_ cells: [Cell: Sum]) -> [Cell: Sum] {
        var months: [Cell: Sum] = [:]
        for (cell, sum) in cells {
            months[month(cell), default: Sum()].total += sum.total
            months[month(cell), default: Sum()].count += sum.count
        }
        return months
    }

    static func query(_ viewer: Viewer, _ change: (inout TransactionQuery) -> Void = { _ in }) -> TransactionQuery {
        narrowed(TransactionQuery(visibleTo: viewer), change)
    }

    static func narrowed(_ query: TransactionQuery, _ change: (inout TransactionQuery) -> Void) -> TransactionQuery {
        var query = query
        change(&query)
        return query
    }

    /// The sum of the live `rows`' amounts, of one kind when given.
    static func total(_ rows: [Row], _ kind: TransactionKind? = nil) -> Int64 {
        rows.filter { $0.isLive && (kind == nil || $0.kind == kind) }.reduce(0) { $0 + $1.minorUnits }
    }

    // MARK: Lists and search

    static func listQueries(_ viewer: Viewer, _ h: Household) -> [(String, TransactionQuery)] {
        let make = { (label: String, change: (inout TransactionQuery) -> Void) -> (String, TransactionQuery) in
            ("\(name(viewer)), \(label)", query(viewer) { query in query.limit = 7; change(&query) })
        }
        var queries = [
            make("no filter") { _ in },
            make("oldest first, deleted included") { $0.order = .oldestFirst; $0.deleted = .included },
            make("largest first") { $0.order = .largestFirst },
            make("smallest first, deleted only") { $0.order = .smallestFirst; $0.deleted = .only },
            make("by category (Swiff 2.3.2)") { $0.order = .byCategory },
            make("deleted only") { $0.deleted = .only },
            make("the joint account") { $0.walletIDs = [h.joint] },
            make("Carol's bank") { $0.walletIDs = [h.carolBank] },
            make("Bob's card and cash") { $0.walletIDs = [h.bobCard, h.cash] },
            make("groceries and restaurants") { $0.categoryIDs = [h.groceries, h.restaurants] },
            make("income") { $0.kinds = [.income] },
            make("expenses in a partial range") { $0.kinds = [.expense]; $0.dates = partialRange },
            make("February") { $0.restrict(to: Scenario.date("2026-02-01").yearMonth) },
            make("tag kids") { $0.tags = ["kids"] },
            make("tags trip or work, deleted included") { $0.tags = ["trip", "work"]; $0.deleted = .included },
            make("paid by Carol") { $0.payers = [carol] },
            make("paid by Alice or Bob") { $0.payers = [alice, bob] },
            make("with Dave") { $0.people = [dave] },
            make("with Bob") { $0.people = [bob] },
            make("amounts 100 to 400") { $0.minorUnits = 10_000...40_000 },
            make("text 'market work'") { $0.text = "market work" },
        ]
        for word in Household.vocabulary + Household.privateWords.values.sorted() + ["kid", "mark", "orch", "pel"] {
            queries.append(make("text '\(word)'") { $0.text = word })
        }
        queries.append(make("text 'orchid', deleted included") { $0.text = "orchid"; $0.deleted = .included })
        return queries
    }

    @Test("G7 (TECH-008): transaction lists (every order; wallet, category, kind, dates, tags, payers, people, amounts, deleted only or included, text search) read in pages of 7 are exactly the reference rows the viewer sees, in order, with their fields", arguments: [UInt64(7), 31])
    func listsHoldWhatTheViewerSees(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        var counts: [Viewer: Int] = [:]
        var jointCounts: [Viewer: Int] = [:]
        for viewer in Self.viewers {
            for (label, query) in Self.listQueries(viewer, h) {
                let rows = try await Self.pages(test.ledger, query, label)
                let want = Self.reference(query, h)
                #expect(rows.map(\.transaction.transactionID) == want.map(\.id), "seed \(seed), \(label)")
                for (row, expected) in zip(rows, want) where row.transaction.transactionID == expected.id { Self.expectRow(row, expected, label) }
                if query.walletIDs.isEmpty, query.text == nil, query.tags.isEmpty, query.payers.isEmpty, query.people.isEmpty, query.kinds.isEmpty,
                   query.minorUnits == nil, query.dates == nil, query.deleted == .included {
                    counts[viewer] = rows.count
                }
                if query.walletIDs == [h.joint] { jointCounts[viewer] = rows.count }
            }
        }
        for member in Self.members {
            #expect((counts[member] ?? 0) < (counts[.audit] ?? 0), "seed \(seed): \(Self.name(member)) lists fewer transactions than the audit")
            #expect((jointCounts[member] ?? 0) < (jointCounts[.audit] ?? 0), "seed \(seed): \(Self.name(member)) lists fewer rows of the joint account")
            #expect((counts[member] ?? 0) > 0)
        }
        try await test.ledger.close()
    }

    @Test("G7 (TECH-008): a member's search never matches words that occur only in another member's personal notes or tags, not even by a prefix or among deleted rows; the owner and the audit find them")
    func searchNeverMatchesAnotherMembersPersonalWords() async throws {
        let (test, built) = try await Self.household(seed: 11)
        var h = built
        defer { test.directory.remove() }
        let ledger = test.ledger
        let orchids = [
            try await h.record(payer: Self.carol, sharing: .personal, wallet: h.joint, category: h.groceries, minorUnits: 1_200,
                               date: Scenario.date("2026-02-03"), note: "orchid greenhouse", tags: ["surprise"], on: ledger),
            try await h.record(payer: Self.carol, sharing: .personal, wallet: h.carolBank, category: h.groceries, minorUnits: 2_400,
                               date: Scenario.date("2026-02-04"), note: "Orchid", on: ledger),
        ].compactMap { $0 }
        let deleted = try #require(try await h.record(
            payer: Self.carol, sharing: .personal, wallet: h.joint, category: h.groceries, minorUnits: 3_600,
            date: Scenario.date("2026-02-05"), note: "orchid nursery", on: ledger))
        try await h.submit(.deleteTransaction(transactionID: deleted), by: Self.carol, on: ledger)
        try await h.record(payer: Self.alice, sharing: .household, wallet: h.joint, category: h.groceries, minorUnits: 4_800,
                           date: Scenario.date("2026-02-06"), note: "greenhouse tour", on: ledger)
        #expect(orchids.count == 2)
        for text in ["orchid", "ORCHID", "orc", "orchid greenhouse", "surprise", "sur"] {
            for deletedRows in [TransactionQuery.Deleted.excluded, .included] {
                let audit = try await ledger.transactions(Self.query(.audit) { $0.text = text; $0.deleted = deletedRows })
                let carols = try await ledger.transactions(Self.query(.member(Self.carol)) { $0.text = text; $0.deleted = deletedRows })
                #expect(!audit.rows.isEmpty && carols.rows == audit.rows, "'\(text)': Carol finds her own words as the audit does")
                for member in [Self.alice, Self.bob] {
                    let page = try await ledger.transactions(Self.query(.member(member)) { $0.text = text; $0.deleted = deletedRows })
                    #expect(page.rows.isEmpty, "'\(text)' (\(deletedRows)): \(Self.name(.member(member))) finds nothing of Carol's personal notes")
                }
            }
        }
        for member in [Self.alice, Self.bob] {
            #expect(try await ledger.transactions(Self.query(.member(member)) { $0.tags = ["surprise"] }).rows.isEmpty)
            let greenhouse = try await ledger.transactions(Self.query(.member(member)) { $0.text = "greenhouse" })
            #expect(greenhouse.rows.count == 1, "the shared 'greenhouse tour' only")
        }
        // Every member's private word, against the reference: only its owner (and the audit) find it.
        for viewer in Self.viewers {
            for (owner, word) in Household.privateWords {
                let query = Self.query(viewer) { $0.text = word; $0.deleted = .included; $0.limit = 1_000 }
                let rows = try await ledger.transactions(query).rows
                #expect(rows.map(\.transaction.transactionID) == Self.reference(query, h).map(\.id), "\(Self.name(viewer)) searching '\(word)'")
                if case .member(let person) = viewer, person != owner { #expect(rows.isEmpty, "\(Self.name(viewer)) searching '\(word)'") }
                #expect(rows.allSatisfy { $0.transaction.payer == owner && $0.split.isEmpty }, "'\(word)' is only in \(Self.name(.member(owner)))'s personal notes")
            }
        }
        try await ledger.close()
    }

    // MARK: Reports

    @Test("G7 (TECH-008): day totals, totals by category and month and by month: a member's sums and counts are the reference's for what they see, from the aggregate (whole months, wallet, category or kind filters) and from the rows (a partial range, any other filter), and the two paths agree", arguments: [UInt64(7), 31])
    func reportsSumWhatTheViewerSees(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        var fourMonths: [Viewer: [Cell: Sum]] = [:]
        for viewer in Self.viewers {
            let variants: [(String, TransactionQuery)] = [
                ("four months", Self.query(viewer) { $0.dates = Self.fourMonths }),
                ("no dates", Self.query(viewer)),
                ("joint, four months", Self.query(viewer) { $0.walletIDs = [h.joint]; $0.dates = Self.fourMonths }),
                ("Carol's bank", Self.query(viewer) { $0.walletIDs = [h.carolBank] }),
                ("groceries and home", Self.query(viewer) { $0.categoryIDs = [h.groceries, Household.home] }),
                ("expenses, February and March", Self.query(viewer) { $0.kinds = [.expense]; $0.dates = Scenario.date("2026-02-01")...Scenario.date("2026-03-31") }),
            ]
            for (variant, query) in variants {
                let label = "seed \(seed), \(Self.name(viewer)), \(variant)"
                let want = Self.reference(query, h)
                let wantMonths = Self.sums(want) { Cell(span: $0.date.yearMonth.isoString, category: nil, kind: $0.kind) }
                let wantCategories = Self.sums(want) { Cell(span: $0.date.yearMonth.isoString, category: $0.categoryID, kind: $0.kind) }
                let wantDays = Self.sums(want) { Cell(span: $0.date.isoString, category: nil, kind: $0.kind) }
                // The same selection from the rows: an amount range that keeps every row.
                var fromRows = query
                fromRows.minorUnits = 1...Int64.max
                let months = Self.cells(try await ledger.monthTotals(query)) { $0.isoString }
                let categories = Self.cells(try await ledger.categoryTotals(byMonth: query)) { $0.isoString }
                let days = Self.cells(try await ledger.dayTotals(query))
                #expect(months == wantMonths, "\(label): month totals from the aggregate")
                #expect(categories == wantCategories, "\(label): category totals from the aggregate")
                #expect(days == wantDays, "\(label): day totals")
                #expect(Self.cells(try await ledger.monthTotals(fromRows)) { $0.isoString } == months, "\(label): rows and aggregate agree")
                #expect(Self.cells(try await ledger.categoryTotals(byMonth: fromRows)) { $0.isoString } == categories, "\(label): rows and aggregate agree")
                #expect(Self.byMonth(days) == months, "\(label): day totals summed per month are the month totals")
                if variant == "four months" { fourMonths[viewer] = months }
            }
            for (variant, query) in [
                ("partial range", Self.query(viewer) { $0.dates = Self.partialRange }),
                ("joint, partial range", Self.query(viewer) { $0.walletIDs = [h.joint]; $0.dates = Self.partialRange }),
                ("paid by Bob", Self.query(viewer) { $0.payers = [Self.bob] }),
                ("with Dave", Self.query(viewer) { $0.people = [Self.dave] }),
            ] {
                let label = "seed \(seed), \(Self.name(viewer)), \(variant)"
                let want = Self.reference(query, h)
                #expect(Self.cells(try await ledger.monthTotals(query)) { $0.isoString }
                    == Self.sums(want) { Cell(span: $0.date.yearMonth.isoString, category: nil, kind: $0.kind) }, "\(label): month totals from the rows")
                #expect(Self.cells(try await ledger.categoryTotals(byMonth: query)) { $0.isoString }
                    == Self.sums(want) { Cell(span: $0.date.yearMonth.isoString, category: $0.categoryID, kind: $0.kind) }, "\(label): category totals from the rows")
                #expect(Self.cells(try await ledger.dayTotals(query)) == Self.sums(want) { Cell(span: $0.date.isoString, category: nil, kind: $0.kind) }, "\(label): day totals")
            }
        }
        for member in Self.members {
            #expect(fourMonths[member] != fourMonths[.audit], "seed \(seed): \(Self.name(member))'s month report is not the household's")
        }
        try await ledger.close()
    }

    /// `value / divisor` rounded half to even (both positive).
    static func halfEven(_ value: Int64, _ divisor: Int64) -> Int64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        if 2 * remainder > divisor || (2 * remainder == divisor && quotient % 2 == 1) { return quotient + 1 }
        return quotient
    }

    @Test("G7 (TECH-008): average monthly spending, totals per pay period and analytics (per month and over a range) sum only what the viewer sees, as the reference does", arguments: [UInt64(7), 31])
    func averagesPeriodsAndAnalyticsSumWhatTheViewerSees(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        let march = try YearMonth(year: 2026, month: 3)
        let periods = await ledger.payPeriods(last: 3, endingWith: Scenario.date("2026-03-20"))
        #expect(periods.map(\.start.isoString) == ["2026-01-01", "2026-02-01", "2026-03-01"], "monthly pay periods from the 1st")
        var expenses: [Viewer: AnalyticsTotals] = [:]
        for viewer in Self.viewers {
            for (variant, filter) in [("all", Self.query(viewer)), ("joint", Self.query(viewer) { $0.walletIDs = [h.joint] }),
                                      ("paid by Bob", Self.query(viewer) { $0.payers = [Self.bob] }), ("text 'market'", Self.query(viewer) { $0.text = "market" })] {
                let label = "seed \(seed), \(Self.name(viewer)), \(variant)"
                let firstQuarter = Scenario.date("2026-01-01")...Scenario.date("2026-03-31")
                let spent = Self.reference(Self.narrowed(filter) { $0.kinds = [.expense]; $0.dates = firstQuarter }, h)
                let average = try await ledger.averageMonthlySpending(months: 3, endingWith: march, filter)
                let wantAverage: [Money] = spent.isEmpty ? [] : [Scenario.chf(Self.halfEven(Self.total(spent), 3))]
                #expect(average == wantAverage, "\(label): average")
                let byPeriod = try await ledger.categoryTotals(byPayPeriod: filter, last: 3, endingWith: Scenario.date("2026-03-20"))
                let inPeriods = Self.reference(Self.narrowed(filter) { $0.dates = firstQuarter }, h)
                #expect(Self.cells(byPeriod) { $0.start.yearMonth.isoString }
                    == Self.sums(inPeriods) { Cell(span: $0.date.yearMonth.isoString, category: $0.categoryID, kind: $0.kind) }, "\(label): per pay period")
                let report = try await ledger.analytics(AnalyticsQuery(span: .month, from: Self.fourMonths.lowerBound, through: Self.fourMonths.upperBound, filter: filter))
                #expect(report.currency == .chf && report.periods.count == 4, "\(label)")
                for period in report.periods {
                    let span = period.period.start...period.period.end
                    let month = Self.reference(Self.narrowed(filter) { $0.dates = span }, h)
                    let previousMonth = try period.period.start.yearMonth.adding(months: -1)
                    let before = Self.reference(Self.narrowed(filter) { $0.restrict(to: previousMonth) }, h)
                    let totals = (income: Self.total(month, .income), expense: Self.total(month, .expense))
                    let previous = (income: Self.total(before, .income), expense: Self.total(before, .expense))
                    #expect(period.totals.income.minorUnits == totals.income && period.totals.expense.minorUnits == totals.expense,
                            "\(label), \(period.period.start): income and expense")
                    #expect(period.previous.income.minorUnits == previous.income && period.previous.expense.minorUnits == previous.expense,
                            "\(label), \(period.period.start): the month before")
                    let categories = Self.sums(month) { Cell(span: "", category: $0.categoryID, kind: $0.kind) }.mapValues(\.total)
                    var reported: [Cell: Int64] = [:]
                    for category in period.categories { reported[Cell(span: "", category: category.categoryID, kind: category.kind)] = category.amount.minorUnits }
                    #expect(reported.filter { $0.value != 0 } == categories, "\(label), \(period.period.start): per category")
                    if variant == "all", period.period.start.month == 3 { expenses[viewer] = period.totals }
                }
                let range = try await ledger.analytics(AnalyticsQuery(span: .range, from: Self.partialRange.lowerBound, through: Self.partialRange.upperBound, filter: filter))
                let inRange = Self.reference(Self.narrowed(filter) { $0.dates = Self.partialRange }, h)
                #expect(range.periods.first?.totals.expense.minorUnits == Self.total(inRange, .expense), "\(label): over a range")
            }
        }
        for member in Self.members {
            #expect(expenses[member] != expenses[.audit], "seed \(seed): \(Self.name(member))'s March analytics are not the household's")
        }
        try await ledger.close()
    }

    @Test("G7 (TECH-008): a month report for a member does not change when another member records a personal expense that month (in the joint account), nor when it becomes shared with someone else; the audit's and the sharers' do, by exactly its amount, from the aggregate and from the rows")
    func monthReportIgnoresAnotherMembersPersonalExpense() async throws {
        let (test, built) = try await Self.household(seed: 5)
        var h = built
        defer { test.directory.remove() }
        let ledger = test.ledger
        let march = try YearMonth(year: 2026, month: 3)
        func report(_ viewer: Viewer) async throws -> [String: [Cell: Sum]] {
            let whole = Self.query(viewer) { $0.restrict(to: march) }
            let partial = Self.query(viewer) { $0.dates = Scenario.date("2026-03-10")...Scenario.date("2026-03-20") }
            return [
                "months": Self.cells(try await ledger.monthTotals(whole)) { $0.isoString },
                "categories": Self.cells(try await ledger.categoryTotals(byMonth: whole)) { $0.isoString },
                "days": Self.cells(try await ledger.dayTotals(whole)),
                "partial months": Self.cells(try await ledger.monthTotals(partial)) { $0.isoString },
            ]
        }
        func reports() async throws -> [Viewer: [String: [Cell: Sum]]] {
            var all: [Viewer: [String: [Cell: Sum]]] = [:]
            for viewer in Self.viewers { all[viewer] = try await report(viewer) }
            return all
        }
        let before = try await reports()
        let expense = try #require(try await h.record(
            payer: Self.carol, sharing: .personal, wallet: h.joint, category: h.groceries, minorUnits: 3_612,
            date: Scenario.date("2026-03-18"), note: "garden", on: ledger))
        let added = try await reports()
        func expectGrew(_ viewer: Viewer, _ after: [Viewer: [String: [Cell: Sum]]], _ step: String) {
            let cell = Cell(span: "2026-03", category: nil, kind: .expense)
            for kind in ["months", "partial months"] {
                let (old, new) = (before[viewer]?[kind]?[cell] ?? Sum(), after[viewer]?[kind]?[cell] ?? Sum())
                #expect(new.total == old.total + 3_612 && new.count == old.count + 1, "\(step): \(Self.name(viewer))'s \(kind) grew by the expense")
            }
        }
        for viewer in [Viewer.member(Self.alice), .member(Self.bob)] { #expect(added[viewer] == before[viewer], "personal: \(Self.name(viewer))'s report is unchanged") }
        for viewer in [Viewer.member(Self.carol), .audit] { expectGrew(viewer, added, "personal") }
        // Shared with Bob: Bob's report now counts it, Alice's still does not.
        var entry = TransactionEntry(kind: .expense, amount: Scenario.chf(3_612), walletID: h.joint, categoryID: h.groceries,
                                     date: Scenario.date("2026-03-18"), note: "garden", payer: Self.carol)
        entry.splitWith = .equal([Self.bob, Self.carol])
        try #require(try await h.submit(.editTransaction(transactionID: expense, entry: entry), by: Self.carol, on: ledger) != nil)
        let shared = try await reports()
        #expect(shared[.member(Self.alice)] == before[.member(Self.alice)], "shared with Bob: Alice's report is unchanged")
        for viewer in [Viewer.member(Self.bob), .member(Self.carol), .audit] { expectGrew(viewer, shared, "shared with Bob") }
        // Personal again, then deleted.
        entry.splitWith = nil
        try #require(try await h.submit(.editTransaction(transactionID: expense, entry: entry), by: Self.carol, on: ledger) != nil)
        #expect(try await reports() == added, "personal again: every report is as after recording it")
        try #require(try await h.submit(.deleteTransaction(transactionID: expense), by: Self.carol, on: ledger) != nil)
        #expect(try await reports() == before, "deleted: every report is as before")
        try await ledger.close()
    }

    // MARK: Statements, balances, totals

    @Test("G7 (TECH-008): a statement lists the movements of the wallet the viewer sees (another member's personal transactions left out), each row with the wallet's true balance after it, as in the audit's statement, in pages of 7 both ways; another member's own wallet is invalidQuery", arguments: [UInt64(7), 31])
    func statementsShowTheViewersRowsWithTheWalletsBalance(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        for viewer in Self.viewers {
            var hidden = 0
            for wallet in h.wallets {
                let label = "seed \(seed), \(Self.name(viewer)), \(wallet.name)"
                guard Rule.sees(viewer, wallet) else {
                    let error = await #expect(throws: LedgerError.self, "\(label)") { try await ledger.statement(StatementQuery(walletID: wallet.id, visibleTo: viewer)) }
                    #expect(error?.code == "invalidQuery", "\(label): \(String(describing: error))")
                    continue
                }
                let all = h.movements(of: wallet.id)
                var running = wallet.openingMinorUnits
                let balances = all.map { movement -> Int64 in
                    running += wallet.kind.movementSign * movement.delta
                    return running
                }
                let seen = zip(all, balances).filter { movement, _ in
                    guard case .transaction(let id) = movement.source, let transaction = h.transaction(id) else { return true }
                    return Rule.sees(viewer, transaction)
                }
                hidden += all.count - seen.count
                var auditBalances: [UInt64: Money?] = [:]
                for order in [TransactionQuery.Order.newestFirst, .oldestFirst] {
                    var query = StatementQuery(walletID: wallet.id, visibleTo: viewer)
                    query.order = order
                    query.limit = 7
                    let pages = try await allPages(of: query, cursor: \.after, next: \.next) { query in try await ledger.statement(query) }
                    #expect(pages.dropLast().allSatisfy { $0.rows.count == 7 }, "\(label): full pages")
                    let rows = pages.flatMap(\.rows)
                    let want = order == .oldestFirst ? seen : Array(seen.reversed())
                    let sources = rows.map { row -> Household.Movement.Source in
                        switch row.movement {
                        case .transaction(let transaction): .transaction(transaction.transaction.transactionID)
                        case .transfer(let transfer): .transfer(transfer.transferID)
                        }
                    }
                    #expect(sources == want.map { $0.0.source }, "\(label), \(order): the rows the viewer sees")
                    #expect(rows.map(\.amount.minorUnits) == want.map { wallet.kind.movementSign * $0.0.delta }, "\(label), \(order): amounts")
                    #expect(rows.map { $0.balance?.minorUnits } == want.map { wallet.isObserved ? nil : $0.1 }, "\(label), \(order): the wallet's balance after each row")
                    if viewer == .audit {
                        for row in rows { auditBalances[row.sequenceNumber] = row.balance }
                    } else {
                        var auditQuery = query
                        auditQuery.viewer = .audit
                        auditQuery.limit = 1_000
                        for row in try await ledger.statement(auditQuery).rows { auditBalances[row.sequenceNumber] = row.balance }
                        #expect(rows.allSatisfy { auditBalances[$0.sequenceNumber] == $0.balance }, "\(label), \(order): each balance is the audit's for that row")
                    }
                }
            }
            if viewer != .audit { #expect(hidden > 0, "seed \(seed): \(Self.name(viewer))'s statements leave out some movement of a wallet they see") }
        }
        try await ledger.close()
    }

    @Test("G7 (TECH-008): wallet balances and totals: a member gets the household's wallets and their own (balances, owners and live counts as the reference has them), totals over those only; people() lists everyone with their role and viewer", arguments: [UInt64(7), 31])
    func balancesAndTotalsCoverTheViewersWallets(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        for viewer in Self.viewers {
            let label = "seed \(seed), \(Self.name(viewer))"
            let balances = try await ledger.read { db in try db.walletBalances(visibleTo: viewer) }
            let want = h.wallets.filter { Rule.sees(viewer, $0) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
            #expect(balances.map(\.walletID) == want.map(\.id), "\(label): the wallets")
            for (balance, wallet) in zip(balances, want) where balance.walletID == wallet.id {
                #expect(balance.balance == Scenario.chf(h.balance(of: wallet)) && balance.owner == wallet.owner, "\(label), \(wallet.name): balance")
                #expect(balance.liveTransactionCount == h.transactions.filter { $0.isLive && $0.walletID == wallet.id }.count, "\(label), \(wallet.name): live count")
            }
            let total = want.reduce(Int64(0)) { $0 + ($1.kind.isLiability ? -1 : 1) * h.balance(of: $1) }
            let totals = try await ledger.totals(visibleTo: viewer)
            #expect(totals.perCurrency == [Scenario.chf(total)] && totals.baseTotal == Scenario.chf(total), "\(label): totals")
            if viewer != .audit { #expect(want.count < h.wallets.count, "\(label): some wallet is another member's") }
        }
        let people = await ledger.people()
        #expect(people.map(\.personID) == [Self.alice, Self.bob, Self.carol, Self.dave])
        #expect(people.map(\.role) == [.admin, .member, .member, .contact])
        #expect(people.map(\.viewer) == [.member(Self.alice), .member(Self.bob), .member(Self.carol), .member(Self.dave)])
        try await ledger.close()
    }

    // MARK: Debts, flows, subscriptions, alerts

    @Test("G7 (TECH-008): debts are the pairs the member is part of, with the reference's net amounts; monthly flows count the wallets they see, each as in the audit's, totals summed over them", arguments: [UInt64(7), 31])
    func debtsAndFlowsCoverWhatTheViewerIsPartOf(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        let debts = h.householdDebts()
        for viewer in Self.viewers {
            let label = "seed \(seed), \(Self.name(viewer))"
            let rows = try await ledger.debts(visibleTo: viewer)
            let got = rows.map { Household.Debt(debtor: $0.debtor, creditor: $0.creditor, minorUnits: $0.amount.minorUnits) }
                .sorted { ($0.debtor, $0.creditor) < ($1.debtor, $1.creditor) }
            let want = debts.filter { Rule.sees(viewer, debtor: $0.debtor, creditor: $0.creditor) }
            #expect(got == want, "\(label): debts")
            if viewer != .audit { #expect(want.count < debts.count, "\(label): some pair is not theirs") }
        }
        for monthNumber in 1...4 {
            let month = try YearMonth(year: 2026, month: monthNumber)
            let audit = try await ledger.flows(in: month, visibleTo: .audit)
            #expect(audit.wallets.contains { $0.walletID == h.carolBank }, "Carol's bank counts in the household's flows")
            for viewer in Self.members {
                let flows = try await ledger.flows(in: month, visibleTo: viewer)
                let want = audit.wallets.filter { row in h.wallet(row.walletID).map { Rule.sees(viewer, $0) } ?? false }
                #expect(flows.wallets == want, "\(Self.name(viewer)), \(month): the wallets they see")
                #expect(flows.inflow.minorUnits == want.reduce(0) { $0 + $1.inflow.minorUnits }, "\(Self.name(viewer)), \(month): inflow")
                #expect(flows.outflow.minorUnits == want.reduce(0) { $0 + $1.outflow.minorUnits }, "\(Self.name(viewer)), \(month): outflow")
                #expect(want.count < audit.wallets.count)
            }
        }
        for viewer in Self.viewers {
            let range = try await ledger.flows(from: YearMonth(year: 2026, month: 1), through: YearMonth(year: 2026, month: 4), visibleTo: viewer)
            var single: [MonthlyFlows] = []
            for monthNumber in 1...4 { single.append(try await ledger.flows(in: YearMonth(year: 2026, month: monthNumber), visibleTo: viewer)) }
            #expect(range == single, "\(Self.name(viewer)): a range of months is its months")
        }
        try await ledger.close()
    }

    @Test("G7 (TECH-008): subscriptions, upcoming occurrences, the renewal calendar and subscription totals hold the items the viewer pays or shares (household ratio or weights); billing history of another member's personal item is unknownTemplate", arguments: [UInt64(7), 31])
    func subscriptionsHoldTheViewersItems(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        let on = Scenario.date("2026-03-20")
        let march = try YearMonth(year: 2026, month: 3)
        let auditUpcoming = await ledger.upcomingOccurrences(from: Scenario.date("2026-03-01"), days: 60, visibleTo: .audit)
        let auditCalendar = await ledger.renewalCalendar(for: march, visibleTo: .audit)
        #expect(Set(auditUpcoming.map(\.templateID)).count == h.templates.count)
        for viewer in Self.viewers {
            let label = "seed \(seed), \(Self.name(viewer))"
            let visible = h.templates.filter { Rule.sees(viewer, $0) }
            let ids = Set(visible.map(\.id))
            let subscriptions = await ledger.subscriptions(on: on, visibleTo: viewer)
            #expect(subscriptions.count == visible.count && Set(subscriptions.map(\.templateID)) == ids, "\(label): subscriptions")
            let upcoming = await ledger.upcomingOccurrences(from: Scenario.date("2026-03-01"), days: 60, visibleTo: viewer)
            #expect(upcoming == auditUpcoming.filter { ids.contains($0.templateID) } && Set(upcoming.map(\.templateID)) == ids, "\(label): upcoming")
            let calendar = await ledger.renewalCalendar(for: march, visibleTo: viewer)
            #expect(calendar == auditCalendar.filter { ids.contains($0.templateID) } && Set(calendar.map(\.templateID)) == ids, "\(label): calendar")
            let totals = try await ledger.subscriptionTotals(on: on, visibleTo: viewer)
            let monthly = visible.reduce(Int64(0)) { $0 + $1.minorUnits }
            #expect(totals.count == visible.count && totals.monthly == Scenario.chf(monthly) && totals.annual == Scenario.chf(12 * monthly), "\(label): totals")
            for template in h.templates {
                if ids.contains(template.id) {
                    let history = try await ledger.billingHistory(of: template.id, visibleTo: viewer)
                    let posted = h.transactions.filter { $0.templateID == template.id }
                    #expect(history.map(\.date) == template.posted && history.map(\.transactionID) == posted.map(\.id), "\(label), \(template.note): history")
                } else {
                    let error = await #expect(throws: LedgerError.self) { try await ledger.billingHistory(of: template.id, visibleTo: viewer) }
                    #expect(error?.code == "unknownTemplate", "\(label), \(template.note): \(String(describing: error))")
                }
            }
            if viewer != .audit { #expect(visible.count < h.templates.count, "\(label): some item is another member's") }
        }
        try await ledger.close()
    }

    @Test("G7 (TECH-008): alerts: a member gets the household's budget alerts and the large transactions, upcoming items and stale wallets they see, never another member's personal large transaction", arguments: [UInt64(7), 31])
    func alertsHoldWhatTheViewerSees(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        let on = Scenario.date("2026-03-20")
        let audit = try await ledger.alerts(on: on, visibleTo: .audit)
        let carolsLarge = try #require(h.transactions.first { $0.payer == Self.carol && $0.sharers == nil && $0.minorUnits == 90_000 })
        let fund = try #require(h.wallet(h.carolFund))
        for viewer in Self.viewers {
            let label = "seed \(seed), \(Self.name(viewer))"
            let alerts = try await ledger.alerts(on: on, visibleTo: viewer)
            let want = audit.filter { alert in
                switch alert.kind {
                case .budget: true
                case .upcoming(let id, _, _): h.templates.first { $0.id == id }.map { Rule.sees(viewer, $0) } ?? false
                case .largeTransaction(let id, _, _): h.transaction(id).map { Rule.sees(viewer, $0) } ?? false
                case .staleBalance(let id, _, _): h.wallet(id).map { Rule.sees(viewer, $0) } ?? false
                case .priceIncrease(let id, _, _, _): h.templates.first { $0.id == id }.map { Rule.sees(viewer, $0) } ?? false
                case .settleUp(let person, _, _): viewer == .audit || viewer == .member(person)
                case .spendingSpike: true  // not set in this household
                case .balanceBelow(let id, _, _), .balanceAbove(let id, _, _): h.wallet(id).map { Rule.sees(viewer, $0) } ?? false
                }
            }
            #expect(alerts == want, "\(label): the audit's alerts the viewer sees")
            let large = alerts.compactMap { alert -> TransactionID? in if case .largeTransaction(let id, _, _) = alert.kind { id } else { nil } }
            let wantLarge = Household.sorted(h.transactions.filter {
                $0.isLive && $0.date.yearMonth == on.yearMonth && $0.minorUnits >= Household.largeMinorUnits && Rule.sees(viewer, $0)
            }, .largestFirst)
            #expect(large == wantLarge.map(\.id), "\(label): large transactions")
            #expect(large.contains(carolsLarge.id) == (viewer == .member(Self.carol) || viewer == .audit), "\(label): Carol's large personal expense")
            let upcoming = Set(alerts.compactMap { alert -> TemplateID? in if case .upcoming(let id, _, _) = alert.kind { id } else { nil } })
            let wantUpcoming = Set(h.templates.filter { template in
                guard let date = try? template.anchor.adding(months: 2) else { return false }
                return Rule.sees(viewer, template) && date >= on && on.days(until: date) <= 10
            }.map(\.id))
            #expect(upcoming == wantUpcoming, "\(label): upcoming items")
            let stale = alerts.compactMap { alert -> WalletID? in if case .staleBalance(let id, _, _) = alert.kind { id } else { nil } }
            #expect(stale == (Rule.sees(viewer, fund) ? [h.carolFund] : []), "\(label): Carol's stale fund")
        }
        try await ledger.close()
    }

    // MARK: Activity, observation, rebuild

    /// The values an observation yielded, appended by the task that consumes it.
    final class Values: Sendable {
        let pages = Mutex<[TransactionPage]>([])
    }

    @Test("G7 (TECH-008): activity: a member sees their own commands and another person's that created or changed nothing they do not see (an undo or redo as its target, judged now), never an entry naming another member's personal transaction, item or wallet; pages of 5 are full and the cursor continues", arguments: [UInt64(7), 31])
    func activityHoldsWhatTheViewerMaySee(seed: UInt64) async throws {
        let (test, h) = try await Self.household(seed: seed)
        defer { test.directory.remove() }
        let ledger = test.ledger
        var counts: [Viewer: Int] = [:]
        #expect(h.commands.contains { $0.target != nil }, "seed \(seed): the history has undo or redo commands")
        for viewer in Self.viewers {
            let label = "seed \(seed), \(Self.name(viewer))"
            var query = ActivityQuery(visibleTo: viewer)
            query.limit = 5
            let pages = try await allPages(of: query, cursor: \.before, next: \.next) { query in try await ledger.activity(query) }
            #expect(pages.dropLast().allSatisfy { $0.entries.count == 5 }, "\(label): full pages")
            let entries = pages.flatMap(\.entries)
            let want = h.commands.reversed().filter { Rule.sees(viewer, $0, in: h) }
            #expect(entries.map(\.commandID) == want.map(\.id), "\(label): the entries")
            #expect(entries.map(\.actor) == want.map(\.actor), "\(label): the actors")
            var hidden = Set(h.transactions.filter { !Rule.sees(viewer, $0) }.map { "transaction/\($0.id)" })
            hidden.formUnion(h.templates.filter { !Rule.sees(viewer, $0) }.map { "template/\($0.id)" })
            hidden.formUnion(h.wallets.filter { !Rule.sees(viewer, $0) }.flatMap { ["wallet/\($0.id)", "balancePoints/\($0.id)", "walletDesignation/\($0.id)"] })
            for entry in entries where viewer.person != entry.actor {
                #expect(hidden.isDisjoint(with: entry.entities), "\(label): \(entry.commandID) by another names nothing hidden from the viewer")
            }
            counts[viewer] = entries.count
        }
        for member in Self.members {
            #expect((counts[member] ?? 0) < (counts[.audit] ?? 0), "seed \(seed): \(Self.name(member)) sees fewer commands than the audit")
        }
        try await ledger.close()
    }

    @Test("G7 (TECH-008): an observed transaction list made for a viewer yields what a read for that viewer returns after later commands: Carol's personal expense reaches Carol's and the audit's list only, an expense shared with Bob reaches his")
    func observationFollowsTheViewersRead() async throws {
        let (test, built) = try await Self.household(seed: 3)
        var h = built
        defer { test.directory.remove() }
        let ledger = test.ledger
        let queries = Dictionary(uniqueKeysWithValues: Self.viewers.map { viewer in (viewer, Self.query(viewer) { $0.limit = 1_000 }) })
        func reads() async throws -> [Viewer: TransactionPage] {
            var pages: [Viewer: TransactionPage] = [:]
            for (viewer, query) in queries { pages[viewer] = try await ledger.read { db in try db.transactions(query) } }
            return pages
        }
        let initial = try await reads()
        var collected: [Viewer: Values] = [:]
        var tasks: [Task<Void, any Error>] = []
        for (viewer, query) in queries {
            let values = Values()
            collected[viewer] = values
            let stream = await ledger.observe { db in try db.transactions(query) }
            tasks.append(Task { for try await value in stream { values.pages.withLock { $0.append(value) } } })
        }
        await ledger.waitForObservations(through: await ledger.lastSequenceNumber)
        try await h.record(payer: Self.carol, sharing: .personal, wallet: h.joint, category: h.groceries, minorUnits: 1_212,
                           date: Scenario.date("2026-03-21"), note: "orchid pot", on: ledger)
        let afterPersonal = try await reads()
        try await h.record(payer: Self.alice, sharing: .people([Self.alice, Self.bob]), wallet: h.joint, category: h.groceries, minorUnits: 2_424,
                           date: Scenario.date("2026-03-22"), note: "bakery", on: ledger)
        let afterShared = try await reads()
        await ledger.waitForObservations(through: await ledger.lastSequenceNumber)
        for viewer in Self.viewers {
            let label = Self.name(viewer)
            #expect(afterShared[viewer]?.rows.map(\.transaction.transactionID) == Self.reference(queries[viewer] ?? Self.query(viewer), h).map(\.id),
                    "\(label): the read is the reference")
            let deadline = ContinuousClock.now + .seconds(10)
            while collected[viewer]?.pages.withLock({ $0.last }) != afterShared[viewer], ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let values = collected[viewer]?.pages.withLock { $0 } ?? []
            #expect(values.first == initial[viewer], "\(label): the current value first")
            #expect(values.last == afterShared[viewer], "\(label): the value after the last command is the read's")
            #expect(values.allSatisfy { [initial[viewer], afterPersonal[viewer], afterShared[viewer]].contains($0) }, "\(label): every value is a read's")
        }
        #expect(afterPersonal[.member(Self.alice)] == initial[.member(Self.alice)] && afterPersonal[.member(Self.bob)] == initial[.member(Self.bob)])
        #expect(afterPersonal[.member(Self.carol)] != initial[.member(Self.carol)] && afterPersonal[.audit] != initial[.audit])
        #expect(afterShared[.member(Self.bob)] != afterPersonal[.member(Self.bob)] && afterShared[.member(Self.carol)] == afterPersonal[.member(Self.carol)])
        try await ledger.close()
        for task in tasks { _ = try? await task.value }
    }

    @Test("G7 (TECH-008): after a rebuild of the read side and a reopen, each viewer's month reports (aggregate cells per viewer) and lists are the reference's still")
    func rebuildKeepsEveryViewersCells() async throws {
        let (test, h) = try await Self.household(seed: 13)
        defer { test.directory.remove() }
        func check(_ ledger: Ledger, _ step: String) async throws {
            for viewer in Self.viewers {
                let query = Self.query(viewer) { $0.dates = Self.fourMonths }
                let want = Self.reference(query, h)
                #expect(Self.cells(try await ledger.categoryTotals(byMonth: query)) { $0.isoString }
                    == Self.sums(want) { Cell(span: $0.date.yearMonth.isoString, category: $0.categoryID, kind: $0.kind) }, "\(step), \(Self.name(viewer)): report")
                let rows = try await Self.pages(ledger, Self.query(viewer) { $0.limit = 7 }, step)
                #expect(rows.map(\.transaction.transactionID) == Self.reference(Self.query(viewer), h).map(\.id), "\(step), \(Self.name(viewer)): list")
            }
        }
        try await check(test.ledger, "before")
        _ = try await test.ledger.rebuildReadSide()
        try await check(test.ledger, "rebuilt")
        try await test.ledger.close()
        let reopened = try await test.reopen()
        try await check(reopened, "reopened")
        try await reopened.close()
    }
}
