import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyStore

/// `tally health`: the financial health score 0-100 and its components (Swiff 4.3.3,
/// Docs/Planning.md "Health score"), from the three whole months before `--on`.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health", abstract: "Financial health score 0-100 with its components (Swiff 4.3.3).",
        discussion: "From the income and expenses the reader sees in the three whole months before --on (default today, UTC).")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @OptionGroup var day: OnDateOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let date = try day.date
        let health = try StoreAccess.read(at: path, encryption: try key.encryption()) { store, history throws -> HealthScore in
            let reader = try viewer.viewer(in: history)
            do throws(LedgerError) {
                return try HealthScore(on: date, visibleTo: reader, store: store, wallets: history.readModels.wallets)
            } catch {
                throw CLIError.ledger(error, at: path)
            }
        }
        if json {
            try Terminal.line(CanonicalJSON.object([
                "score": .integer(health.score), "savingsRatePoints": .integer(health.savingsRatePoints),
                "monthsInTheBlackPoints": .integer(health.monthsInTheBlackPoints), "spendingTrendPoints": .integer(health.spendingTrendPoints),
                "savingsRateBasisPoints": health.savingsRateBasisPoints.map(CanonicalJSON.integer) ?? .null,
                "from": CanonicalJSON(health.months.lowerBound), "through": CanonicalJSON(health.months.upperBound),
            ]).text)
        } else {
            try Terminal.line([
                "Health score \(health.score)/100 (\(health.months.lowerBound.isoString)...\(health.months.upperBound.isoString))",
                "  savings rate      \(health.savingsRatePoints)/25 (\(AnalyticsCommand.rate(health.savingsRateBasisPoints)))",
                "  months in black   \(health.monthsInTheBlackPoints)/25",
                "  spending trend    \(health.spendingTrendPoints)/25",
            ].joined(separator: "\n"))
        }
    }
}
