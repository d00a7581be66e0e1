import ArgumentParser
import TallyInterchange
import TallyModel
import TallyProjections
import TallyStore

/// `tally report`: totals per category and month (expenses by default) from the read-side
/// store (Docs/Queries.md): an aligned table per currency, `--json` or `--csv`.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Totals per category and month (a spending report).",
        discussion: "Sums live transactions of the read-side store: expenses unless --kind says otherwise. A table per currency, months as columns; --json and --csv hold one entry per category, month, kind and currency, amounts in minor units (JSON) or plain decimals (CSV).")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var filters: QueryOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print CSV: category_id,category,month,kind,currency,amount,count.") var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
    }

    func run() async throws {
        let path = try location.path()
        let totals = try await StoreAccess.read(at: path, encryption: try key.encryption()) { store in
            var query = try filters.query(in: store)
            if filters.kind == nil { query.kinds = [.expense] }
            return try store.categoryTotals(byMonth: query)
        }
        if json {
            try Terminal.line(Self.json(totals))
        } else if csv {
            try Terminal.line(Self.csv(totals))
        } else {
            try Terminal.line(Self.table(totals))
        }
    }

    /// The schema name of a kind (its case name, as commands and the other reports write it).
    static func kindName(_ kind: TransactionKind) -> String { String(describing: kind) }

    static func categoryName(_ total: MonthTotal) -> String { total.categoryName ?? total.categoryID?.description ?? "" }

    /// A table per currency: a row per category (and kind), a column per month, a total row.
    static func table(_ totals: [MonthTotal]) -> String {
        guard !totals.isEmpty else { return "no transactions match" }
        var sections: [String] = []
        for currency in Set(totals.map(\.total.currency)).sorted(by: { $0.code < $1.code }) {
            let cells = totals.filter { $0.total.currency == currency }
            let months = Array(Set(cells.map(\.month))).sorted()
            let kinds = Set(cells.map(\.kind))
            var rows: [String: [YearMonth: Int64]] = [:]
            var monthSums: [YearMonth: Int64] = [:]
            for cell in cells {
                let label = kinds.count > 1 ? "\(categoryName(cell)) (\(kindName(cell.kind)))" : categoryName(cell)
                rows[label, default: [:]][cell.month, default: 0] &+= cell.total.minorUnits
                monthSums[cell.month, default: 0] &+= cell.total.minorUnits
            }
            var table = TextTable([("Category", .left)] + months.map { ($0.isoString, .right) } + [("Total", .right)])
            func money(_ units: Int64) -> String { Money(minorUnits: units, currency: currency).formatted() }
            for label in rows.keys.sorted() {
                let byMonth = rows[label] ?? [:]
                table.add([label] + months.map { byMonth[$0].map(money) ?? "" } + [money(byMonth.values.reduce(0, &+))])
            }
            table.add(["Total"] + months.map { money(monthSums[$0] ?? 0) } + [money(monthSums.values.reduce(0, &+))])
            sections.append("\(currency.code)\n\(table.render())")
        }
        return sections.joined(separator: "\n\n")
    }

    static func json(_ totals: [MonthTotal]) -> String {
        CanonicalJSON.array(totals.map { total in
            .object([
                "month": .string(total.month.isoString), "categoryID": total.categoryID.map(CanonicalJSON.init) ?? .null,
                "categoryName": total.categoryName.map(CanonicalJSON.string) ?? .null, "kind": .string(kindName(total.kind)),
                "total": CanonicalJSON(total.total), "count": .integer(Int64(total.count)),
            ])
        }).text
    }

    static func csv(_ totals: [MonthTotal]) -> String {
        var lines = ["category_id,category,month,kind,currency,amount,count"]
        for total in totals {
            lines.append([
                total.categoryID?.description ?? "", CSVTable.quoted(categoryName(total), delimiter: ","), total.month.isoString, kindName(total.kind),
                total.total.currency.code, total.total.plainNumber(), String(total.count),
            ].joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }
}
