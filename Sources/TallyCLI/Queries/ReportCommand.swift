import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import TallyStore

/// `tally report`: totals per category and month or pay period (expenses by default) from the
/// read-side store (Docs/Queries.md): an aligned table per currency, `--json` or `--csv`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Totals per category and month or pay period (a spending report).",
        discussion: "Sums live transactions of the read-side store: expenses unless --kind says otherwise. A table per currency, months (or with --by period, pay periods) as columns; --json and --csv hold one entry per category, month or period, kind and currency, amounts in minor units (JSON) or plain decimals (CSV).")

    enum Span: String, ExpressibleByArgument, CaseIterable { case month, period }

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var filters: QueryOptions
    @Option(name: .customLong("by"), help: ArgumentHelp("month (default) or period: the budget's pay periods (B1).", valueName: "SPAN"))
    var span: Span = .month
    @Option(name: .customLong("periods"), help: ArgumentHelp("With --by period: how many pay periods, ending with the one holding --to (default: the last recorded date).", valueName: "N"))
    var periods = 12
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print CSV: category_id,category,month (or period_start,period_end),kind,currency,amount,count.") var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
    }

    func run() async throws {
        let path = try location.path()
        switch span {
        case .month:
            let totals = try StoreAccess.read(at: path, encryption: try key.encryption()) { store in
                try store.categoryTotals(byMonth: try expensesByDefault(try filters.query(in: store)))
            }
            try Terminal.line(render(totals, columns: [("month", \YearMonth.isoString)]))
        case .period:
            // Pay periods come from the budget's schedule: the read models, replayed through
            // what the store covers.
            let totals = try StoreAccess.read(at: path, encryption: try key.encryption(), periodTotals)
            try Terminal.line(render(totals, columns: [("period_start", \PayPeriod.start.isoString), ("period_end", \PayPeriod.end.isoString)]))
        }
    }

    private func expensesByDefault(_ query: TransactionQuery) -> TransactionQuery {
        var query = query
        if filters.kind == nil { query.kinds = [.expense] }
        return query
    }

    private func periodTotals(_ store: LedgerStore, _ history: LedgerHistory) throws -> [PeriodTotal] {
        let query = expensesByDefault(try filters.query(in: store))
        let last = try filters.to.map { try LedgerAccess.date($0, option: "--to") } ?? lastRecordedDate(store, visibleTo: query.viewer)
        return try store.categoryTotals(byPayPeriod: query, last: periods, endingWith: last, budgets: history.readModels.budgets)
    }

    /// The newest business date of a live transaction `viewer` sees (or the earliest date when there is none).
    private func lastRecordedDate(_ store: LedgerStore, visibleTo viewer: Viewer) throws -> LocalDate {
        var newest = TransactionQuery(visibleTo: viewer)
        newest.limit = 1
        return try store.transactions(newest).rows.first?.transaction.date ?? .min
    }

    private func render<Span: Comparable>(_ totals: [SpanTotal<Span>], columns: [(String, KeyPath<Span, String>)]) -> String {
        if json { return Self.json(totals, columns) }
        if csv { return Self.csv(totals, columns) }
        return Self.table(totals) { span in columns.map { span[keyPath: $0.1] }.joined(separator: "..") }
    }

    /// The schema name of a kind (its case name, as commands and the other reports write it).
    static func kindName(_ kind: TransactionKind) -> String { String(describing: kind) }

    static func categoryName<Span>(_ total: SpanTotal<Span>) -> String { total.categoryName ?? total.categoryID?.description ?? "" }

    /// A table per currency: a row per category (and kind), a column per month or period, a
    /// total row.
    static func table<Span: Comparable>(_ totals: [SpanTotal<Span>], label: (Span) -> String) -> String {
        guard !totals.isEmpty else { return "no transactions match" }
        var sections: [String] = []
        for currency in Set(totals.map(\.total.currency)).sorted(by: { $0.code < $1.code }) {
            let cells = totals.filter { $0.total.currency == currency }
            let spans = Array(Set(cells.map(\.span))).sorted()
            let kinds = Set(cells.map(\.kind))
            var rows: [String: [Span: Int64]] = [:]
            var spanSums: [Span: Int64] = [:]
            for cell in cells {
                let name = kinds.count > 1 ? "\(categoryName(cell)) (\(kindName(cell.kind)))" : categoryName(cell)
                rows[name, default: [:]][cell.span, default: 0] &+= cell.total.minorUnits
                spanSums[cell.span, default: 0] &+= cell.total.minorUnits
            }
            var table = TextTable([("Category", .left)] + spans.map { (label($0), .right) } + [("Total", .right)])
            func money(_ units: Int64) -> String { Money(minorUnits: units, currency: currency).formatted() }
            for name in rows.keys.sorted() {
                let bySpan = rows[name] ?? [:]
                table.add([name] + spans.map { bySpan[$0].map(money) ?? "" } + [money(bySpan.values.reduce(0, &+))])
            }
            table.add(["Total"] + spans.map { money(spanSums[$0] ?? 0) } + [money(spanSums.values.reduce(0, &+))])
            sections.append("\(currency.code)\n\(table.render())")
        }
        return sections.joined(separator: "\n\n")
    }

    /// One object per cell; `columns` name the span's fields (`month`, or `period_start` and
    /// `period_end`, written in camel case).
    static func json<Span>(_ totals: [SpanTotal<Span>], _ columns: [(String, KeyPath<Span, String>)]) -> String {
        CanonicalJSON.array(totals.map { total in
            var fields: [String: CanonicalJSON] = [
                "categoryID": total.categoryID.map(CanonicalJSON.init) ?? .null,
                "categoryName": total.categoryName.map(CanonicalJSON.string) ?? .null, "kind": .string(kindName(total.kind)),
                "total": CanonicalJSON(total.total), "count": .integer(Int64(total.count)),
            ]
            for (name, path) in columns { fields[camelCase(name)] = .string(total.span[keyPath: path]) }
            return .object(fields)
        }).text
    }

    static func csv<Span>(_ totals: [SpanTotal<Span>], _ columns: [(String, KeyPath<Span, String>)]) -> String {
        var lines = [(["category_id", "category"] + columns.map(\.0) + ["kind", "currency", "amount", "count"]).joined(separator: ",")]
        for total in totals {
            lines.append(([total.categoryID?.description ?? "", CSVTable.quoted(categoryName(total), delimiter: ",")]
                + columns.map { total.span[keyPath: $0.1] }
                + [kindName(total.kind), total.total.currency.code, total.total.plainNumber(), String(total.count)]).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    private static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "_")
        return ([parts.first.map(String.init) ?? ""] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }).joined()
    }
}
