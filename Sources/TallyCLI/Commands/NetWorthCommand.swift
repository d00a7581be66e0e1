import ArgumentParser
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally networth`: the monthly net worth series (N1, N2) as a table and a bar chart.
struct NetWorthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "networth", abstract: "Net worth per month, with a chart.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Flag(help: "Print JSON (the net worth read model).") var json = false

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        if json {
            try Terminal.line(try Reports.json(path: path) { () throws(ProjectionError) in try history.readModels.netWorth.canonicalJSON() }.text)
            return
        }
        try Terminal.line(try Reports.netWorth(history, path: path))
    }
}

extension Reports {
    static func netWorth(_ history: LedgerHistory, path: String) throws -> String {
        let series: [NetWorthPoint]
        do { series = try history.readModels.netWorth.series() } catch { throw CLIError("\(path): \(error.description)") }
        guard !series.isEmpty else { return "No net worth data yet." }
        var table = TextTable([("Month", .left), ("Net worth", .right), ("", .left), ("", .left)])
        let bars = BarChart.bars(series.map(\.value.minorUnits), width: 30)
        for (point, bar) in zip(series, bars) {
            table.add([point.month.isoString, point.value.formatted(), bar,
                       point.isComplete ? "" : "missing " + point.missingRates.map(\.code).joined(separator: ",")])
        }
        return table.render()
    }
}

/// Horizontal bars drawn with unicode eighth blocks, scaled to the largest magnitude.
enum BarChart {
    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    static func bars(_ values: [Int64], width: Int) -> [String] {
        let largest = values.map(\.magnitude).max() ?? 0
        guard largest > 0 else { return values.map { _ in "" } }
        return values.map { value in
            let scaled = Int((Double(value.magnitude) / Double(largest) * Double(width * 8)).rounded())
            let bar = String(repeating: "█", count: scaled / 8) + eighths[scaled % 8]
            return value < 0 ? "-" + bar : bar
        }
    }
}
