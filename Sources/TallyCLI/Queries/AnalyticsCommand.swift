import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import TallyStore

/// `tally analytics`: income, expense, net and savings rate per month, week or range, per
/// category, each beside the period before (R4, Docs/Planning.md "Analytics").
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics", abstract: "Income, expense, net and savings rate per month, week, day or range, with the period before (R4).",
        discussion: "Live transactions of the read-side store that the filters select, converted into the base currency at each period's last day (G2). The dates are required: --from and --to, or --month.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var filters: QueryOptions
    @Option(name: .customLong("by"), help: ArgumentHelp("month (default), week (from the household's first weekday, Monday unless setFirstWeekday), day or range (one period).", valueName: "SPAN"))
    var span: AnalyticsQuery.Span = .month
    @Flag(help: "List each period's categories too.") var categories = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let encryption = try key.encryption()
        let report = try StoreAccess.read(at: path, encryption: encryption) { store, history in
            let filter = try filters.query(in: store)
            guard let dates = filter.dates else { throw CLIError("give the dates: --from DATE --to DATE, or --month YYYY-MM") }
            do throws(LedgerError) {
                return try AnalyticsReport(AnalyticsQuery(span: span, from: dates.lowerBound, through: dates.upperBound, filter: filter),
                                           store: store, wallets: history.readModels.wallets, firstWeekday: history.readModels.budgets.firstWeekday)
            } catch {
                throw CLIError.ledger(error, at: path)
            }
        }
        try Terminal.line(json ? Self.json(report).text : Self.text(report, categories: categories))
    }

    /// The report as tables; with `categories`, each period's categories too.
    static func text(_ report: AnalyticsReport, categories: Bool) -> String {
        var table = TextTable([("Period", .left), ("Income", .right), ("Expense", .right), ("Net", .right), ("Savings rate", .right), ("Net before", .right)])
        for period in report.periods {
            table.add([
                "\(period.period.start.isoString)...\(period.period.end.isoString)", period.totals.income.formatted(),
                period.totals.expense.formatted(), period.totals.net.formatted(), Self.rate(period.totals.savingsRateBasisPoints),
                period.previous.net.formatted(),
            ])
        }
        var lines = ["Analytics in \(report.currency.code)", table.render()]
        if categories {
            for period in report.periods where !period.categories.isEmpty {
                var rows = TextTable([("Category", .left), ("Kind", .left), ("Amount", .right), ("Before", .right)])
                for line in period.categories {
                    rows.add([line.name, "\(line.kind)", line.amount.formatted(), line.previous.formatted()])
                }
                lines += ["", "\(period.period.start.isoString)...\(period.period.end.isoString)", rows.render()]
            }
        }
        if !report.missingRates.isEmpty { lines.append("Missing exchange rates (left out): " + report.missingRates.map(\.code).joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }

    static func rate(_ basisPoints: Int64?) -> String {
        guard let basisPoints else { return "-" }
        let sign = basisPoints < 0 ? "-" : ""
        let magnitude = basisPoints.magnitude
        return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)%"
    }

    static func json(_ report: AnalyticsReport) -> CanonicalJSON {
        func totals(_ totals: AnalyticsTotals) -> CanonicalJSON {
            .object([
                "income": CanonicalJSON(totals.income), "expense": CanonicalJSON(totals.expense), "net": CanonicalJSON(totals.net),
                "savingsRateBasisPoints": totals.savingsRateBasisPoints.map(CanonicalJSON.integer) ?? .null,
            ])
        }
        return .object([
            "currency": .string(report.currency.code), "missingRates": .array(report.missingRates.map { .string($0.code) }),
            "periods": .array(report.periods.map { period in
                .object([
                    "start": CanonicalJSON(period.period.start), "end": CanonicalJSON(period.period.end),
                    "totals": totals(period.totals), "previous": totals(period.previous),
                    "categories": .array(period.categories.map { line in
                        .object([
                            "categoryID": CanonicalJSON(line.categoryID), "name": .string(line.name), "kind": .string("\(line.kind)"),
                            "amount": CanonicalJSON(line.amount), "previous": CanonicalJSON(line.previous),
                        ])
                    }),
                ])
            }),
        ])
    }
}

extension AnalyticsQuery.Span: ExpressibleByArgument {}
