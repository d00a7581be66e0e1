import ArgumentParser
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally budget`: the budget report of a period (B4): live for the open period, the frozen
/// snapshot for closed ones (B6), with the whole budget's status (US-054) and the weekly
/// savings progress (US-038).
struct BudgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "budget", abstract: "The budget report of a pay period.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Option(help: ArgumentHelp("A date inside the period; default: the current period.", valueName: "DATE")) var period: String?
    @Flag(help: "Print JSON (the report).") var json = false

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let budgets = history.readModels.budgets
        let date = try period.map { try LedgerAccess.date($0, option: "--period") } ?? Self.latestDate(history)
        guard let date else {
            throw CLIError("\(path): no budget data yet; pass --period DATE")
        }
        let report: BudgetReport
        do { report = try budgets.budget(for: budgets.period(containing: date)) } catch { throw CLIError("\(path): \(error.description)") }
        if json {
            try Terminal.line(CanonicalJSON(report).text)
            return
        }
        var table = TextTable([("Category", .left), ("Allocated", .right), ("Spent", .right), ("Remaining", .right), ("%", .right), ("Status", .left)])
        for category in report.categories {
            table.add([
                category.name, category.allocated.formatted(), category.spent.formatted(), category.remaining.formatted(),
                category.percentBasisPoints.map { "\($0 / 100)%" } ?? "-", String(describing: category.status),
            ])
        }
        try Terminal.line("Period \(report.period.start) .. \(report.period.end)\(report.isFinal ? " (closed, snapshot)" : " (open)")")
        try Terminal.line(table.render())
        try Terminal.line("")
        try Terminal.line("Income (\(String(describing: report.income.source))): \(report.income.amount.formatted())")
        try Terminal.line("Allocated: \(report.totalAllocated.formatted())   Unallocated: \(report.unallocated.formatted())")
        try Terminal.line("Spent: \(report.totalSpent.formatted())   Overall: \(String(describing: report.status))")
        try Terminal.line("Savings (\(String(describing: report.savings.targetSource)) target): \(report.savings.saved.formatted()) / \(report.savings.target.formatted())")
        for week in report.savings.weeks {
            try Terminal.line("  week of \(week.weekStart): \(week.saved.formatted()) / \(week.target.formatted())\(week.isMet ? " (goal met)" : "")")
        }
    }

    /// The start of the read model's `current` period (the one containing the latest
    /// transaction or allocation date), so `budget` and `replay --model budgets` agree.
    static func latestDate(_ history: LedgerHistory) -> LocalDate? {
        let budgets = history.readModels.budgets
        return budgets.latestDate.map { budgets.period(containing: $0).start }
    }
}
