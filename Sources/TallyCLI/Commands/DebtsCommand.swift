import ArgumentParser
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally debts`: household debts between members (S5) and group balances (S7, S8).
struct DebtsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "debts", abstract: "Who owes whom: household pairs and groups.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON (the debts read model, an audit read).") var json = false
    @Flag(help: "List each group's expenses with their settled state (S7).") var expenses = false

    func validate() throws {
        if json, viewer.person != nil { throw ValidationError("--json prints the debts read model, the household's audit read: give --as or --json, not both") }
    }

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        if json {
            let debts = history.readModels.debts
            try Terminal.line(try Reports.json(path: path) { () throws(ProjectionError) in
                expenses ? debts.groupExpensesJSON() : try debts.canonicalJSON()
            }.text)
            return
        }
        try Terminal.line(try Reports.debts(history, path: path, expenses: expenses, visibleTo: try viewer.viewer(in: history)))
    }
}

extension Reports {
    /// For a member `viewer` (G7): the pairs they are part of and the groups they belong to.
    static func debts(_ history: LedgerHistory, path: String, expenses: Bool = false, visibleTo viewer: Viewer = .audit) throws -> String {
        let debts = history.readModels.debts
        var lines: [String] = ["Household"]
        do {
            var table = TextTable([("Debtor", .left), ("Creditor", .left), ("Amount", .right), ("Open items", .right)])
            for pair in try debts.householdBalances() {
                guard let debtor = pair.debtor, let creditor = pair.creditor, viewer.sees(anyOf: debtor, creditor) else { continue }
                table.add([history.personName(debtor), history.personName(creditor), pair.amount.formatted(), String(pair.openItems.count)])
            }
            lines.append(table.rows.isEmpty ? "  all settled" : table.render())
            for groupID in debts.groupIDs {
                guard let group = debts.group(groupID), viewer.sees(groupWithMembers: group.members) else { continue }
                lines.append("")
                lines.append("Group \(group.name)")
                var members = TextTable([("Member", .left), ("Paid", .right), ("Owed", .right), ("Balance", .right)])
                let balances = try debts.groupBalances(groupID)
                for currency in balances.keys.sorted() {
                    for member in balances[currency] ?? [] {
                        members.add([history.personName(member.person), member.paid.formatted(), member.owed.formatted(), member.balance.formatted()])
                    }
                }
                lines.append(members.render())
                if expenses {
                    var list = TextTable([
                        ("Date", .left), ("Title", .left), ("Paid by", .left), ("Amount", .right), ("State", .left), ("Unpaid parts", .left),
                    ])
                    for expense in debts.groupExpenses(in: groupID) {
                        let state = expense.isMarkedSettled ? "settled (marked)" : (expense.isSettled ? "settled" : "open")
                        let unpaid = expense.parts.filter { !$0.isPaid }.map { "\(history.personName($0.person)) \($0.amount.formatted())" }
                        list.add([expense.date.isoString, (expense.title ?? expense.note)?.description ?? "", history.personName(expense.paidBy),
                                  expense.amount.formatted(), state, unpaid.joined(separator: ", ")])
                    }
                    lines.append(list.rows.isEmpty ? "  no expenses" : list.render())
                }
                let plan = try debts.settlementPlan(groupID)
                for currency in plan.keys.sorted() {
                    for transfer in plan[currency] ?? [] {
                        lines.append("  plan: \(history.personName(transfer.from)) pays \(history.personName(transfer.to)) \(transfer.amount.formatted())")
                    }
                }
            }
        } catch {
            throw CLIError("\(path): \(error.description)")
        }
        return lines.joined(separator: "\n")
    }
}
