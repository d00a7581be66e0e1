import ArgumentParser
import Tally
import TallyInterchange
import TallyModel

/// `tally tax`: what a person's transactions of a year count toward per tax class (Swiss tax
/// categorization, Phase 5 business; `ledger.taxReport(year:visibleTo:)`).
struct TaxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tax", abstract: "The tax report of a year: income and expenses per tax class of the categories (setCategoryTaxClass).",
        discussion: "Live transactions of the read-side store the person sees (--as; without it the audit read), converted into the base currency at the year's last day (G2). Client and project are tags: `tally transactions --tag client:NAME`.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @Option(help: ArgumentHelp("The calendar year.", valueName: "YYYY")) var year: Int
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let report = try StoreAccess.read(at: path, encryption: try key.encryption()) { store, history in
            let reader = try viewer.viewer(in: history)
            do throws(LedgerError) {
                return try TaxReport(year: year, visibleTo: reader, store: store,
                                     budgets: history.readModels.budgets, wallets: history.readModels.wallets)
            } catch {
                throw CLIError.ledger(error, at: path)
            }
        }
        try Terminal.line(json ? Self.json(report).text : Self.text(report))
    }

    static func text(_ report: TaxReport) -> String {
        guard !report.classes.isEmpty else { return "no category has a tax class; set one with setCategoryTaxClass" }
        var table = TextTable([("Tax class", .left), ("Category", .left), ("Income", .right), ("Expense", .right), ("Count", .right)])
        for total in report.classes {
            table.add(["\(total.taxClass)", "", total.income.formatted(), total.expense.formatted(), "\(total.count)"])
            for line in total.categories {
                table.add(["", line.name, line.income.formatted(), line.expense.formatted(), "\(line.count)"])
            }
        }
        var lines = ["Tax report \(report.year) in \(report.currency.code)", table.render()]
        if !report.missingRates.isEmpty { lines.append("Missing exchange rates (left out): " + report.missingRates.map(\.code).joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }

    static func json(_ report: TaxReport) -> CanonicalJSON {
        .object([
            "year": .integer(Int64(report.year)), "currency": .string(report.currency.code),
            "missingRates": .array(report.missingRates.map { .string($0.code) }),
            "classes": .array(report.classes.map { total in
                .object([
                    "taxClass": .string("\(total.taxClass)"), "income": CanonicalJSON(total.income), "expense": CanonicalJSON(total.expense),
                    "count": .integer(Int64(total.count)),
                    "categories": .array(total.categories.map { line in
                        .object([
                            "categoryID": .string(line.categoryID.description), "name": .string(line.name),
                            "income": CanonicalJSON(line.income), "expense": CanonicalJSON(line.expense), "count": .integer(Int64(line.count)),
                        ])
                    }),
                ])
            }),
        ])
    }
}
