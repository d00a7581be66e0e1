import Foundation
import Tally
import TallyModel
import TallyProjections

/// Export to plain-text accounting (ledger / hledger journal format) so that external tools
/// can check balances (Docs/Domain.md, section 9).
///
/// Accounts: asset wallets `assets:<kind>:<name>` (cash, bank, savings, investment,
/// property, other), liabilities `liabilities:<kind>:<name>` (card, loan), categories
/// `expenses:<name>` / `income:<name>`, openings against `equity:opening balances`, value
/// changes of observed wallets (W5) against `equity:revaluation`. Amounts carry the currency
/// code as commodity (`CHF -1234.50`); a transfer between currencies states its cost with `@@`.
/// A transaction with a payee is described `payee | note` (hledger's payee and note, Swiff 1.1.2).
/// Only live transactions and transfers count (T3), in date order, then journal order. An
/// observed wallet gets one revaluation per day with balance points (and on its opening day
/// when a point comes before it), after that day's movements: the value tally reports at the
/// end of the day less what the account holds by then, so the account ends every such day,
/// and the journal, at the value `balances` reports.
public enum LedgerJournalExporter {
    /// The journal text.
    /// - Throws: ``InterchangeError`` when the journal cannot be read again.
    public static func export(_ history: LedgerHistory) throws(InterchangeError) -> String {
        var entries: [(date: LocalDate, order: Int, text: String)] = []
        var order = 0
        func add(_ date: LocalDate, _ text: String) {
            entries.append((date, order, text))
            order += 1
        }
        let state = history.state
        let accounts = accountNames(state)
        func account(_ walletID: WalletID) -> String { accounts[walletID] ?? "assets:unknown:\(walletID)" }
        var openings: [(WalletID, WalletOpened)] = []
        var transfers: [TransferID: TransferRecorded] = [:]
        var transactionOrder: [TransactionID] = []
        var events = try history.eventCursor()
        while let committed = try events.next() {
            switch committed.event.payload {
            case .walletOpened(let opened): openings.append((opened.walletID, opened))
            case .transferRecorded(let transfer): transfers[transfer.transferID] = transfer
            case .transferEdited(let edited): transfers[edited.transfer.transferID] = edited.transfer
            case .transactionRecorded(let recorded): transactionOrder.append(recorded.transactionID)
            case .templateActivated(let activated): transactionOrder.append(activated.transactionID)
            default: break
            }
        }
        /// The exported movements of observed wallets per day (the revaluation completes them).
        struct WalletDay: Hashable { let walletID: WalletID; let date: LocalDate }
        var observedMovements: [WalletDay: Int128] = [:]
        func moved(_ walletID: WalletID, _ date: LocalDate, _ minorUnits: Int64) {
            guard state.wallets[walletID]?.isValueObserved == true else { return }
            observedMovements[WalletDay(walletID: walletID, date: date), default: 0] += Int128(minorUnits)
        }
        for (walletID, opened) in openings {
            // The kind now, not at opening: a kind change (W4) turns the opening balance into an
            // amount owed or back, as the wallet read model reads it.
            let isLiability = state.wallets[walletID]?.kind.isLiability ?? opened.kind.isLiability
            let signed = isLiability ? -opened.openingBalance.minorUnits : opened.openingBalance.minorUnits
            add(opened.openedOn, "\(opened.openedOn.isoString) Opening balance \(sanitized(opened.name))\n"
                + "    \(account(walletID))  \(amount(signed, opened.currency))\n    equity:opening balances")
        }
        for transactionID in transactionOrder {
            guard let record = state.transactions[transactionID], !record.isDeleted else { continue }
            let details = record.details
            let category = state.categories[details.categoryID]?.name ?? details.categoryID.description
            let categoryAccount = (details.kind == .expense ? "expenses:" : "income:") + sanitized(category.lowercased())
            let wallet = account(details.walletID)
            let signed = details.kind == .expense ? details.amount.minorUnits : -details.amount.minorUnits
            let description = Self.description(payee: record.payee, note: details.note, category: category)
            moved(details.walletID, details.date, -signed)
            let original = record.originalAmount.map { ", original:\($0.formatted())" } ?? ""  // T7, an hledger tag
            add(details.date, "\(details.date.isoString) \(description)  ; id:\(transactionID)\(original)\n"
                + "    \(categoryAccount)  \(amount(signed, details.amount.currency))\n    \(wallet)")
        }
        for transferID in transfers.keys.sorted() {
            guard let transfer = transfers[transferID], state.transfers[transferID]?.isDeleted != true else { continue }
            let from = account(transfer.fromWalletID)
            let to = account(transfer.toWalletID)
            let received = amount(transfer.amountReceived.minorUnits, transfer.amountReceived.currency)
            let sent = amount(transfer.amountSent.minorUnits, transfer.amountSent.currency)
            let cost = transfer.amountSent.currency == transfer.amountReceived.currency ? "" : " @@ \(sent)"
            moved(transfer.toWalletID, transfer.date, transfer.amountReceived.minorUnits)
            moved(transfer.fromWalletID, transfer.date, -transfer.amountSent.minorUnits)
            add(transfer.date, "\(transfer.date.isoString) \(sanitized(transfer.note?.description ?? "Transfer"))  ; id:\(transferID)\n"
                + "    \(to)  \(received)\(cost)\n    \(from)  \(amount(-transfer.amountSent.minorUnits, transfer.amountSent.currency))")
        }
        // Observed wallets (W5): one revaluation per day with balance points, and on the opening
        // day when a point comes before it, after that day's entries: the value tally reports at
        // the end of the day (the day's last point plus what moved after it) less what the
        // account holds by then (opening, movements, earlier revaluations).
        var movementsByWallet: [WalletID: [(date: LocalDate, units: Int128)]] = [:]
        for (day, units) in observedMovements { movementsByWallet[day.walletID, default: []].append((day.date, units)) }
        for (walletID, opened) in openings.sorted(by: { $0.0 < $1.0 }) {
            let points = history.readModels.wallets.balancePoints(of: walletID)
            guard let wallet = state.wallets[walletID], wallet.isValueObserved, let firstPoint = points.first else { continue }
            var days = Set(points.map(\.date))
            if firstPoint.date < opened.openedOn { days.insert(opened.openedOn) }
            let movements = movementsByWallet[walletID] ?? []
            var revaluations = Int128(0)
            for day in days.sorted() {
                guard let point = points.last(where: { $0.date <= day }) else { continue }
                let opening = opened.openedOn <= day ? Int128(opened.openingBalance.minorUnits) : 0
                let booked = movements.reduce(opening + revaluations) { $1.date <= day ? $0 + $1.units : $0 }
                let target = movements.reduce(Int128(point.balance.minorUnits)) { point.date < $1.date && $1.date <= day ? $0 + $1.units : $0 }
                guard let change = Int64(exactly: target - booked), change != 0 else { continue }
                revaluations += Int128(change)
                add(day, "\(day.isoString) Revaluation \(sanitized(wallet.name))\n"
                    + "    \(account(walletID))  \(amount(change, wallet.currency))\n    equity:revaluation")
            }
        }
        let household = state.household.map { "; household: \($0.name), base currency \($0.baseCurrency.code)\n" } ?? ""
        let body = entries.sorted { ($0.date, $0.order) < ($1.date, $1.order) }.map(\.text).joined(separator: "\n\n")
        return "; Exported by tally (ledger/hledger journal format)\n" + household + "\n" + body + "\n"
    }

    /// The account of every wallet: `assets:<kind>:<name>` or `liabilities:<kind>:<name>`, the
    /// name without the characters the journal format cannot hold (``sanitized(_:)``). Names
    /// that differ only in those (`Savings: B` and `Savings B`) would share an account, so the
    /// second of them, by wallet id, gets ` #` and the first 8 digits of its id appended.
    package static func accountNames(_ state: LedgerState) -> [WalletID: String] {
        var result: [WalletID: String] = [:]
        var taken: Set<String> = []
        for walletID in state.wallets.keys.sorted() {
            guard let wallet = state.wallets[walletID] else { continue }
            let root = wallet.kind.isLiability ? "liabilities" : "assets"
            var name = "\(root):\(wallet.kind):\(sanitized(wallet.name))"
            if taken.contains(name) { name += " #" + String(walletID.description.prefix(8)) }
            taken.insert(name)
            result[walletID] = name
        }
        return result
    }

    /// An amount with its commodity: `CHF -1234.50`.
    static func amount(_ minorUnits: Int64, _ currency: Currency) -> String {
        "\(currency.code) \(Money(minorUnits: minorUnits, currency: currency).plainNumber())"
    }

    /// A transaction's description in hledger's payee | note convention (Swiff 1.1.2): `payee |
    /// note` with a payee and a note, the payee alone without a note (hledger then reads the whole
    /// description as the payee), else the note, else the category's name. A `|` in the payee
    /// becomes a space, so the first `|` is always the separator.
    static func description(payee: PersonalText?, note: PersonalText?, category: String) -> String {
        let noteText = note.map { sanitized($0.description) }
        guard let payee else { return noteText ?? sanitized(category) }
        let payeeText = sanitized(payee.description.replacingOccurrences(of: "|", with: " "))
        return [payeeText, noteText].compactMap { $0 }.joined(separator: " | ")
    }

    /// Names without `:` (account separator), `;` (comment) or runs of spaces (which end an
    /// account name in the journal format).
    static func sanitized(_ name: String) -> String {
        var result = ""
        for character in name {
            let replaced: Character = (character == ":" || character == ";" || character == "\t" || character == "\n") ? " " : character
            if replaced == " " && result.hasSuffix(" ") { continue }
            result.append(replaced)
        }
        return result.trimmingCharacters(in: .whitespaces)
    }
}
