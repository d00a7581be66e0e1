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
    @Flag(help: "List the bonus pool instead (US-066): each bonus, what is allocated and left, and the last day to allocate it.") var bonusPool = false
    @OptionGroup var viewer: ViewerOption

    func validate() throws {
        if viewer.person != nil, !bonusPool {
            throw ValidationError("--as goes with --bonus-pool (a bonus is its receiver's income); the budget report is the household's, read without --as")
        }
    }

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let budgets = history.readModels.budgets
        if bonusPool {
            return try Self.printBonusPool(budgets.bonusPool(visibleTo: try viewer.viewer(in: history)), json: json)
        }
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

    /// US-066: the bonus pool the viewer sees, as a table or JSON (`[{transactionID, date, amount,
    /// allocated, available, deadline, rolledIn}]`).
    static func printBonusPool(_ pool: [BonusPoolEntry], json: Bool) throws {
        if json {
            try Terminal.line(CanonicalJSON.array(pool.map { entry in
                .object([
                    "transactionID": CanonicalJSON(entry.transactionID), "date": CanonicalJSON(entry.date),
                    "amount": CanonicalJSON(entry.amount), "allocated": CanonicalJSON(entry.allocated),
                    "available": CanonicalJSON(entry.available), "deadline": CanonicalJSON(entry.deadline),
                    "rolledIn": entry.rolledIn.map { CanonicalJSON($0) } ?? .null,
                ])
            }).text)
            return
        }
        guard !pool.isEmpty else { return try Terminal.line("The bonus pool is empty.") }
        var table = TextTable([("Date", .left), ("Bonus", .right), ("Allocated", .right), ("Available", .right), ("Allocate by", .left)])
        for entry in pool {
            table.add([
                "\(entry.date)", entry.amount.formatted(), entry.allocated.formatted(), entry.available.formatted(),
                entry.rolledIn.map { "rolled into income: \($0.formatted())" } ?? "\(entry.deadline)",
            ])
        }
        try Terminal.line(table.render())
    }

    /// The start of the read model's `current` period (the one containing the latest
    /// transaction or allocation date), so `budget` and `replay --model budgets` agree.
    static func latestDate(_ history: LedgerHistory) -> LocalDate? {
        let budgets = history.readModels.budgets
        return budgets.latestDate.map { budgets.period(containing: $0).start }
    }
}
