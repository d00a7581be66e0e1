import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally people`: each person's balance with the others, in an order (Swiff 2.3.2), one
/// pair's balance over time (Swiff 1.3.1 sparkline) and one person's group expenses across
/// groups (Swiff 1.3.1 history), for a viewer (G7; Docs/Queries.md "People").
struct PeopleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people", abstract: "Balances with people: sorted, and one balance over time.",
        subcommands: [PeopleBalancesCommand.self, PeopleHistoryCommand.self, PeopleExpensesCommand.self], defaultSubcommand: PeopleBalancesCommand.self)
}

/// The options both `people` subcommands read the ledger with.
struct PeopleOptions: ParsableArguments {
    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON.") var json = false

    /// Runs `body` with the debts as of the journal's end, the viewer `--as` names and the history's names.
    func withView(_ body: (PlanningView, Viewer, LedgerHistory) throws -> String) throws -> String {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        do {
            return try body(PlanningView(state: history.state, models: history.readModels, store: nil), try viewer.viewer(in: history), history)
        } catch let error as LedgerError {
            throw CLIError.ledger(error, at: path)
        }
    }

    /// The JSON of one balance row.
    static func json(_ balance: PersonBalance) -> CanonicalJSON {
        .object([
            "person": CanonicalJSON(balance.person), "other": CanonicalJSON(balance.other), "owedToPerson": CanonicalJSON(balance.owedToPerson),
            "household": CanonicalJSON(balance.household),
            "groups": .array(balance.groups.sorted { $0.key < $1.key }.map { .object(["groupID": CanonicalJSON($0.key), "amount": CanonicalJSON($0.value)]) }),
        ])
    }

    /// "Bob owes Alice 12.00" / "Alice owes Bob 12.00".
    static func text(_ balance: PersonBalance, _ history: LedgerHistory) -> String {
        let (person, other) = (history.personName(balance.person), history.personName(balance.other))
        let amount = balance.owedToPerson
        let magnitude = Money(minorUnits: Int64(clamping: amount.minorUnits.magnitude), currency: amount.currency)
        return amount.isPositive ? "\(other) owes \(person) \(magnitude.formatted())" : "\(person) owes \(other) \(magnitude.formatted())"
    }
}

extension PersonBalanceOrder: ExpressibleByArgument {}

/// `tally people [balances]`: each person's balance with the others (`Ledger.personBalances(visibleTo:sortedBy:)`).
struct PeopleBalancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balances", abstract: "Each person's balance with the others across the household and groups (Swiff 1.3.1, 2.3.2).",
        discussion: "With --as, only that person's own balances (G7).")

    @OptionGroup var options: PeopleOptions
    @Option(name: .customLong("sort"), help: ArgumentHelp("person (default), balance-desc (largest either way first) or activity-desc (most recent change first).", valueName: "ORDER"))
    var order: PersonBalanceOrder = .byPerson

    func run() async throws {
        let text = try options.withView { view, viewer, history in
            let balances = try view.personBalances(visibleTo: viewer, sortedBy: order)
            if options.json { return CanonicalJSON.array(balances.map(PeopleOptions.json)).text }
            guard !balances.isEmpty else { return "No balances: all settled." }
            return balances.map { PeopleOptions.text($0, history) }.joined(separator: "\n")
        }
        try Terminal.line(text)
    }
}

/// `tally people history --with OTHER`: one pair's balance at the end of each date it changed
/// (`Ledger.personBalanceHistory(of:with:visibleTo:)`).
struct PeopleHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "A balance with one person over time: one line per date it changed (Swiff 1.3.1 sparkline).",
        discussion: "Whose balance: --of, else the --as person. A member reads only their own pairs (G7).")

    @OptionGroup var options: PeopleOptions
    @Option(name: .customLong("with"), help: ArgumentHelp("The other person (id or name).", valueName: "PERSON")) var other: String
    @Option(name: .customLong("of"), help: ArgumentHelp("Whose balance (id or name); default: the --as person.", valueName: "PERSON"))
    var person: String?

    func run() async throws {
        let text = try options.withView { view, viewer, history in
            let other = try history.person(self.other, option: "--with")
            guard let person = try self.person.map({ try history.person($0, option: "--of") }) ?? viewer.person else {
                throw CLIError("whose balance: give --of PERSON or --as PERSON")
            }
            let points = try view.personBalanceHistory(of: person, with: other, visibleTo: viewer)
            if options.json {
                return CanonicalJSON.array(points.map { point in
                    .object(["date": CanonicalJSON(point.date), "balances": .array(point.balances.map(PeopleOptions.json))])
                }).text
            }
            guard !points.isEmpty else { return "No balance between \(history.personName(person)) and \(history.personName(other))." }
            return points.map { point in
                "\(point.date.isoString)  " + (point.balances.isEmpty ? "settled" : point.balances.map { PeopleOptions.text($0, history) }.joined(separator: "; "))
            }.joined(separator: "\n")
        }
        try Terminal.line(text)
    }
}

/// `tally people expenses --person PERSON`: the group expenses a person paid or has a part of, across
/// groups (`Ledger.groupExpenses(involving:settled:visibleTo:)`).
struct PeopleExpensesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expenses", abstract: "One person's group expenses across every group, settled or open (Swiff 1.3.1 history).",
        discussion: "With --as, only the groups that person is in (G7).")

    @OptionGroup var options: PeopleOptions
    @Option(name: .customLong("person"), help: ArgumentHelp("Whose expenses (id or name).", valueName: "PERSON")) var person: String
    @Option(name: .customLong("state"), help: ArgumentHelp("Only settled or only open expenses.", valueName: "settled|open"))
    var state: State?

    /// `--state settled|open`.
    enum State: String, ExpressibleByArgument, CaseIterable { case settled, open }

    func run() async throws {
        let text = try options.withView { view, viewer, history in
            let person = try history.person(self.person, option: "--person")
            let expenses = view.groupExpenses(involving: person, settled: state.map { $0 == .settled }, visibleTo: viewer)
            if options.json {
                return CanonicalJSON.array(expenses.map { expense in
                    .object([
                        "expenseID": CanonicalJSON(expense.expenseID), "groupID": CanonicalJSON(expense.groupID), "date": CanonicalJSON(expense.date),
                        "paidBy": CanonicalJSON(expense.paidBy), "amount": CanonicalJSON(expense.amount),
                        "part": CanonicalJSON(expense.owed.first { $0.person == person }?.amount), "isSettled": .bool(expense.isSettled),
                    ])
                }).text
            }
            guard !expenses.isEmpty else { return "No group expenses of \(history.personName(person))." }
            var table = TextTable([("Date", .left), ("Group", .left), ("Paid by", .left), ("Amount", .right), ("Their part", .right), ("State", .left)])
            for expense in expenses {
                table.add([
                    expense.date.isoString, history.readModels.debts.group(expense.groupID)?.name ?? expense.groupID.description,
                    history.personName(expense.paidBy), expense.amount.formatted(),
                    expense.owed.first { $0.person == person }?.amount.formatted() ?? "", expense.isSettled ? "settled" : "open",
                ])
            }
            return table.render()
        }
        try Terminal.line(text)
    }
}
