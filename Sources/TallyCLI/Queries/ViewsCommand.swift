import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyStore

/// `tally views`: the saved filters and report templates a person sees (Flow US-058, Swiff
/// 2.3.3), or one of them run: a saved filter lists its transactions, a report template prints
/// its analytics report (Docs/Queries.md "Saved views").
struct ViewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "views", abstract: "Saved filters and report templates (Flow US-058): list them, or run one.",
        discussion: "Without --view: the views the reader sees (--as: their own and the shared ones, G7; without --as every member's). With --view VIEW (id or name): a saved filter's first page of transactions, or a report template's report on --on (default today, UTC), each over what the reader sees.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @OptionGroup var day: OnDateOption
    @Option(name: .customLong("view"), help: ArgumentHelp("The view to run: its id or name.", valueName: "VIEW")) var view: String?
    @Flag(help: "List each report period's categories too.") var categories = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let date = try day.date
        let output = try StoreAccess.read(at: path, encryption: try key.encryption()) { store, history throws -> String in
            let reader = try viewer.viewer(in: history)
            let views = history.views(visibleTo: reader)
            guard let view else { return json ? Self.json(views, history: history).text : Self.text(views, history: history) }
            let chosen = try QueryOptions.resolve(view, "--view", views.map { (id: $0.viewID, name: $0.name.description) })
            guard let saved = views.first(where: { $0.viewID == chosen }) else { throw CLIError("--view \(view): not found") }
            guard saved.report != nil else {
                let page = try store.transactions(saved.query(visibleTo: reader))
                return json ? TransactionsCommand.json(page) : TransactionsCommand.table(page)
            }
            do throws(LedgerError) {
                let report = try AnalyticsReport(saved.analyticsQuery(on: date, visibleTo: reader), store: store, wallets: history.readModels.wallets,
                                                 firstWeekday: history.readModels.budgets.firstWeekday)
                return json ? AnalyticsCommand.json(report).text : "\(saved.name.description)\n" + AnalyticsCommand.text(report, categories: categories)
            } catch {
                throw CLIError.ledger(error, at: path)
            }
        }
        try Terminal.line(output)
    }

    static func text(_ views: [ViewSaved], history: LedgerHistory) -> String {
        guard !views.isEmpty else { return "no saved views" }
        var table = TextTable([("View", .left), ("Id", .left), ("Owner", .left), ("Shared", .left), ("Report", .left)])
        for view in views {
            table.add([view.name.description, view.viewID.description, history.personName(view.owner), view.shared ? "shared" : "private",
                       view.report.map { "\($0.range.name) by \($0.span.rawValue)" } ?? "-"])
        }
        return table.render()
    }

    static func json(_ views: [ViewSaved], history: LedgerHistory) -> CanonicalJSON {
        .array(views.map { view in
            .object([
                "viewID": .string(view.viewID.description), "name": .string(view.name.description), "ownerID": .string(view.owner.description),
                "shared": .bool(view.shared),
                "filter": view.filter.json,
                "report": view.report?.json ?? .null,
            ])
        })
    }
}
