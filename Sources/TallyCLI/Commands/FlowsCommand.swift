import ArgumentParser
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally flows`: a month's inflow and outflow (N5), per wallet by its designation.
struct FlowsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flows", abstract: "Monthly inflow and outflow from each wallet's net change (N5).",
        discussion: "Per wallet: the base (balance on or before the 1st), the latest balance in the month, the change, and what it adds to inflow or outflow by its designation (setWalletDesignation; a wallet never designated counts for nothing). Totals in the base currency, converted exactly and rounded once (G2).")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Option(help: ArgumentHelp("The month; default: the last month with a business date.", valueName: "YYYY-MM")) var month: String?
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        var chosen: YearMonth?
        if let month {
            do { chosen = try YearMonth(iso: month) } catch { throw CLIError("--month \(month): \(error.message)") }
        }
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let netWorth = history.readModels.netWorth
        let flows: MonthlyFlows
        do {
            guard let target = try chosen ?? netWorth.series().last?.month else {
                try Terminal.line(json ? "null" : "No flows yet: the ledger has no wallet.")
                return
            }
            flows = try netWorth.flows(in: target, visibleTo: try viewer.viewer(in: history))
        } catch let error as ProjectionError {
            throw CLIError("\(path): \(error.description)")
        }
        if json {
            try Terminal.line(CanonicalJSON(flows).text)
            return
        }
        let names = Dictionary(uniqueKeysWithValues: history.state.wallets.map { ($0.key, $0.value.name) })
        try Terminal.line(Self.text(flows, name: { names[$0] ?? $0.description }))
    }

    /// The month as a table (one row per wallet, by name), then the totals.
    static func text(_ flows: MonthlyFlows, name: (WalletID) -> String) -> String {
        var table = TextTable([
            ("Wallet", .left), ("Designation", .left), ("Base", .right), ("Latest", .right), ("Change", .right),
            ("Inflow", .right), ("Outflow", .right),
        ])
        for wallet in flows.wallets.sorted(by: { (name($0.walletID), $0.walletID) < (name($1.walletID), $1.walletID) }) {
            table.add([
                name(wallet.walletID), "\(wallet.designation)", wallet.base?.formatted() ?? "-",
                wallet.latest?.formatted() ?? "-", wallet.change.formatted(),
                wallet.inflow.isZero ? "" : wallet.inflow.formatted(), wallet.outflow.isZero ? "" : wallet.outflow.formatted(),
            ])
        }
        var lines = ["Flows \(flows.month.isoString) in \(flows.currency.code)", table.render(), ""]
        lines.append("Inflow:  \(flows.inflow.formatted())")
        lines.append("Outflow: \(flows.outflow.formatted())")
        if !flows.missingRates.isEmpty {
            lines.append("Missing exchange rates (left out): " + flows.missingRates.map(\.code).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
