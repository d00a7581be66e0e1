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
/// Only live transactions and transfers count (T3), in date order, then journal order. An
/// observed wallet gets one revaluation per day with balance points, after that day's
/// movements: the value the last point of the day sets less the value before the day and the
/// day's movements, so the account ends every day at the value `balances` reports.
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
        var openings: [(WalletID, WalletOpened)] = []
        var transfers: [TransferID: TransferRecorded] = [:]
        var transactionOrder: [TransactionID] = []
        var balancePoints: [BalanceRecorded] = []
        var events = try history.eventCursor()
        while let committed = try events.next() {
            switch committed.event.payload {
            case .walletOpened(let opened): openings.append((opened.walletID, opened))
            case .transferRecorded(let transfer): transfers[transfer.transferID] = transfer
            case .transferEdited(let edited): transfers[edited.transferID] = edited.transfer
            case .transactionRecorded(let recorded): transactionOrder.append(recorded.transactionID)
            case .templateActivated(let activated): transactionOrder.append(activated.transactionID)
            case .balanceRecorded(let point): balancePoints.append(point)
            case .balanceRemoved(let removed):
                balancePoints.removeAll { $0.walletID == removed.walletID && $0.date == removed.date }
            default: break
            }
        }
        /// The exported movements of observed wallets per day (the revaluation completes them).
        struct WalletDay: Hashable { let walletID: WalletID; let date: LocalDate }
        var observedMovements: [WalletDay: Int128] = [:]
        func moved(_ walletID: WalletID, _ date: LocalDate, _ minorUnits: Int64) {
            guard state.wallets[walletID]?.kind.isValueObserved == true else { return }
            observedMovements[WalletDay(walletID: walletID, date: date), default: 0] += Int128(minorUnits)
        }
        for (walletID, opened) in openings {
            let account = Self.account(walletID, state: state)
            let signed = opened.kind.isLiability ? -opened.openingBalance.minorUnits : opened.openingBalance.minorUnits
            add(opened.openedOn, "\(opened.openedOn.isoString) Opening balance \(opened.name)\n"
                + "    \(account)  \(amount(signed, opened.currency))\n    equity:opening balances")
        }
        for transactionID in transactionOrder {
            guard let record = state.transactions[transactionID], !record.isDeleted else { continue }
            let details = record.details
            let category = state.categories[details.categoryID]?.name ?? details.categoryID.description
            let categoryAccount = (details.kind == .expense ? "expenses:" : "income:") + sanitized(category.lowercased())
            let wallet = Self.account(details.walletID, state: state)
            let signed = details.kind == .expense ? details.amount.minorUnits : -details.amount.minorUnits
            let description = sanitized(details.note?.description ?? category)
            moved(details.walletID, details.date, -signed)
            add(details.date, "\(details.date.isoString) \(description)  ; id:\(transactionID)\n"
                + "    \(categoryAccount)  \(amount(signed, details.amount.currency))\n    \(wallet)")
        }
        for transferID in transfers.keys.sorted() {
            guard let transfer = transfers[transferID], state.transfers[transferID]?.isDeleted != true else { continue }
            let from = Self.account(transfer.fromWalletID, state: state)
            let to = Self.account(transfer.toWalletID, state: state)
            let received = amount(transfer.amountReceived.minorUnits, transfer.amountReceived.currency)
            let sent = amount(transfer.amountSent.minorUnits, transfer.amountSent.currency)
            let cost = transfer.amountSent.currency == transfer.amountReceived.currency ? "" : " @@ \(sent)"
            moved(transfer.toWalletID, transfer.date, transfer.amountReceived.minorUnits)
            moved(transfer.fromWalletID, transfer.date, -transfer.amountSent.minorUnits)
            add(transfer.date, "\(transfer.date.isoString) \(sanitized(transfer.note?.description ?? "Transfer"))  ; id:\(transferID)\n"
                + "    \(to)  \(received)\(cost)\n    \(from)  \(amount(-transfer.amountSent.minorUnits, transfer.amountSent.currency))")
        }
        var revalued: Set<WalletDay> = []
        for point in balancePoints {
            let day = WalletDay(walletID: point.walletID, date: point.date)
            guard revalued.insert(day).inserted,  // one per wallet and day, however many points
                  let wallet = state.wallets[point.walletID], wallet.kind.isValueObserved,
                  let after = try? history.readModels.wallets.balance(of: point.walletID, asOf: point.date),
                  // Before the day: the value the day before, or the opening balance on the opening day.
                  let before = (try? history.readModels.wallets.balance(of: point.walletID, asOf: try point.date.adding(days: -1)))
                    ?? openings.first(where: { $0.0 == point.walletID && $0.1.openedOn == point.date })?.1.openingBalance,
                  let change = Int64(exactly: Int128(after.minorUnits) - Int128(before.minorUnits) - (observedMovements[day] ?? 0)),
                  change != 0
            else { continue }
            add(point.date, "\(point.date.isoString) Revaluation \(sanitized(wallet.name))\n"
                + "    \(Self.account(point.walletID, state: state))  \(amount(change, after.currency))\n    equity:revaluation")
        }
        let household = state.household.map { "; household: \($0.name), base currency \($0.baseCurrency.code)\n" } ?? ""
        let body = entries.sorted { ($0.date, $0.order) < ($1.date, $1.order) }.map(\.text).joined(separator: "\n\n")
        return "; Exported by tally (ledger/hledger journal format)\n" + household + "\n" + body + "\n"
    }

    static func account(_ walletID: WalletID, state: LedgerState) -> String {
        guard let wallet = state.wallets[walletID] else { return "assets:unknown:\(walletID)" }
        let root = wallet.kind.isLiability ? "liabilities" : "assets"
        return "\(root):\(wallet.kind):\(sanitized(wallet.name))"
    }

    /// An amount with its commodity: `CHF -1234.50`.
    static func amount(_ minorUnits: Int64, _ currency: Currency) -> String {
        "\(currency.code) \(Money(minorUnits: minorUnits, currency: currency).plainNumber())"
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
