import Foundation
import Tally
import TallyModel

/// One command as a line of the JSON command schema (Sources/Tally/Tally.docc/Commands.md), for the `tally apply`
/// file. Covers the actions `ScaleWorkload` issues (personal transactions with a note and tags);
/// any other is nil.
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
        case .recordTransaction(let transactionID, let entry) where !entry.isShared:
            let note = entry.note.map { ", \"note\": \(string($0))" } ?? ""
            let tags = entry.tags.isEmpty ? "" : ", \"tags\": [\(entry.tags.map(string).joined(separator: ", "))]"
            fields = """
                "command": "recordTransaction", \(envelope), "transactionID": "\(transactionID)", \
                "kind": "\(entry.kind == .income ? "income" : "expense")", "amount": \(money(entry.amount)), \
                "walletID": "\(entry.walletID)", "categoryID": "\(entry.categoryID)", "date": "\(entry.date.isoString)", \
                "payer": "\(entry.payer)"\(note)\(tags)
                """
        default:
            return nil
        }
        return "{\(fields)}"
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    private static func string(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case _ where scalar.value < 0x20: literal += String(format: "\\u%04x", scalar.value)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    private static func money(_ amount: Money) -> String {
        #"{"minorUnits": \#(amount.minorUnits), "currency": "\#(amount.currency)"}"#
    }
}
