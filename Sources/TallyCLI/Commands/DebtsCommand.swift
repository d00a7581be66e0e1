import ArgumentParser
import TallyInterchange
import TallyProjections

/// `tally debts`: household debts between members (S5) and group balances (S7, S8).
struct DebtsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "debts", abstract: "Who owes whom: household pairs and groups.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Flag(help: "Print JSON (the debts read model).") var json = false

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        if json {
            try Terminal.line(try Reports.json(path: path) { () throws(ProjectionError) in try history.readModels.debts.canonicalJSON() }.text)
            return
        }
        try Terminal.line(try Reports.debts(history, path: path))
    }
}

extension Reports {
    static func debts(_ history: LedgerHistory, path: String) throws -> String {
        let debts = history.readModels.debts
        var lines: [String] = ["Household"]
        do {
            var table = TextTable([("Debtor", .left), ("Creditor", .left), ("Amount", .right), ("Open items", .right)])
            for pair in try debts.householdBalances() {
                guard let debtor = pair.debtor, let creditor = pair.creditor else { continue }
                table.add([history.personName(debtor), history.personName(creditor), pair.amount.formatted(), String(pair.openItems.count)])
            }
            lines.append(table.rows.isEmpty ? "  all settled" : table.render())
            for groupID in debts.groupIDs {
                guard let group = debts.group(groupID) else { continue }
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
