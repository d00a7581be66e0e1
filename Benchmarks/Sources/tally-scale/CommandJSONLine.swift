import Tally
import TallyModel

/// One command as a line of the JSON command schema (Docs/Commands.md), for the `tally apply`
/// file. Covers the actions `ScaleWorkload` issues; any other is nil.
enum CommandJSONLine {
    static func line(for command: Command) -> String? {
        let envelope = """
            "commandID": "\(command.commandID)", "actor": "\(command.actor)", "recordedAt": "\(command.recordedAt.iso8601)"
            """
        let fields: String
        switch command.action {
        case .createHousehold(let householdID, let name, let baseCurrency, let adminName):
            fields = """
                "command": "createHousehold", \(envelope), "householdID": "\(householdID)", "name": "\(name)", \
                "baseCurrency": "\(baseCurrency)", "adminName": "\(adminName)"
                """
        case .addMember(let personID, let name):
            fields = #""command": "addMember", \#(envelope), "personID": "\#(personID)", "name": "\#(name)""#
        case .openWallet(let walletID, let name, let kind, let openingBalance, let openedOn, nil):
            fields = """
                "command": "openWallet", \(envelope), "walletID": "\(walletID)", "name": "\(name)", \
                "kind": "\(kind == .cash ? "cash" : "bank")", "openingBalance": \(money(openingBalance)), \
                "openedOn": "\(openedOn.isoString)"
                """
        case .recordTransaction(let transactionID, let entry) where entry.note == nil && entry.tags.isEmpty && !entry.isShared:
            fields = """
                "command": "recordTransaction", \(envelope), "transactionID": "\(transactionID)", \
                "kind": "\(entry.kind == .income ? "income" : "expense")", "amount": \(money(entry.amount)), \
                "walletID": "\(entry.walletID)", "categoryID": "\(entry.categoryID)", "date": "\(entry.date.isoString)", \
                "payer": "\(entry.payer)"
                """
        default:
            return nil
        }
        return "{\(fields)}"
    }

    private static func money(_ amount: Money) -> String {
        #"{"minorUnits": \#(amount.minorUnits), "currency": "\#(amount.currency)"}"#
    }
}
