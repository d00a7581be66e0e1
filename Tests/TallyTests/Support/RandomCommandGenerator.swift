import Tally
import TallyModel
import TallyTestSupport

/// A seeded stream of random commands over the two-person ``Scenario`` household, valid and
/// deliberately invalid: shared and personal expenses (some with split overrides whose ratios do
/// not sum to 10000, S1/S2), income, edits and deletes (some of settled transactions, T2),
/// settlements (some exceeding the debt, S6), contacts and groups (S7), split ratios (S1),
/// balance points (W5), transfers (W6), unknown wallets, paydays, budgets and period closing
/// (B1, B2, B6), undo and redo of undoable and non-undoable commands (T5).
///
/// The host clock moves one minute per command and now and then jumps ahead some days, so
/// periods end and close; business dates follow the clock, sometimes backdated (adjustments
/// after close). The same seed always yields the same commands; which of them are valid
/// depends on the order they are executed in.
struct RandomCommandGenerator {
    var scenario = Scenario()
    var random: SeededRandom
    var transactions: [TransactionID] = []
    var transfers: [TransferID] = []
    var groups: [TallyModel.GroupID] = []
    var contacts: [PersonID] = []
    /// Ids of recent commands, for undo and redo.
    var recentCommandIDs: [CommandID] = []

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
    }

    /// The recorded date of the next command, sometimes backdated by up to four days.
    mutating func businessDate() -> LocalDate {
        let today = scenario.clock / 86_400_000
        let back = Int.random(in: 0..<4, using: &random) == 0 ? Int64.random(in: 1...4, using: &random) : 0
        return (try? LocalDate(daysSinceEpoch: max(today - back, Scenario.date("2026-01-02").daysSinceEpoch)))
            ?? Scenario.date("2026-01-05")
    }

    /// The next command.
    mutating func next() -> Command {
        if Int.random(in: 0..<25, using: &random) == 0 {
            scenario.clock += Int64.random(in: 1...9, using: &random) * 86_400_000
        }
        let command = nextCommand()
        recentCommandIDs.append(command.commandID)
        if recentCommandIDs.count > 40 { recentCommandIDs.removeFirst() }
        return command
    }

    private mutating func nextCommand() -> Command {
        let date = businessDate()
        let people = [scenario.alice, scenario.bob]
        let payer = pick(people) ?? scenario.alice
        let amount = Int64.random(in: -50...60_000, using: &random)
        switch Int.random(in: 0..<20, using: &random) {
        case 0...3:
            let id: TransactionID = scenario.ids.next()
            transactions.append(id)
            var entry = scenario.expense(amount, shared: Bool.random(using: &random), payer: payer)
            entry.date = date
            if Int.random(in: 0..<5, using: &random) == 0 {
                entry.ratioOverride = [scenario.ratio(scenario.alice, Int64.random(in: 50...9_950, using: &random)), scenario.ratio(scenario.bob, 5_000)]
            }
            return scenario.command(.recordTransaction(transactionID: id, entry: entry), by: payer)
        case 4:
            let id: TransactionID = scenario.ids.next()
            transactions.append(id)
            let entry = TransactionEntry(kind: .income, amount: Scenario.chf(abs(amount) + 1), walletID: scenario.joint,
                                         categoryID: scenario.salary, date: date, payer: payer)
            return scenario.command(.recordTransaction(transactionID: id, entry: entry), by: payer)
        case 5:
            guard let id = pick(transactions) else { fallthrough }
            var entry = scenario.expense(abs(amount) + 1, shared: Bool.random(using: &random), payer: payer)
            entry.date = date
            return scenario.command(.editTransaction(transactionID: id, entry: entry), by: payer)
        case 6:
            guard let id = pick(transactions) else { fallthrough }
            return scenario.command(Bool.random(using: &random) ? .deleteTransaction(transactionID: id) : .restoreTransaction(transactionID: id))
        case 7:
            let (from, to) = Int.random(in: 0..<4, using: &random) == 0 ? (scenario.alice, scenario.bob) : (scenario.bob, scenario.alice)
            return scenario.command(.recordSettlement(
                settlementID: scenario.ids.next(), from: from, to: to, amount: Scenario.chf(abs(amount) % 5_000 + 1),
                date: date, covers: nil, isAdvance: Int.random(in: 0..<8, using: &random) == 0, groupID: nil))
        case 8:
            if let contact = pick(contacts), Int.random(in: 0..<6, using: &random) == 0 {
                // P3: forgetting a contact (again, sometimes: rejected as personForgotten).
                return scenario.command(.forgetPerson(personID: contact))
            }
            if contacts.isEmpty || Bool.random(using: &random) {
                let contact: PersonID = scenario.ids.next()
                contacts.append(contact)
                return scenario.command(.addPerson(personID: contact, name: "Contact \(contacts.count)"))
            }
            let group: TallyModel.GroupID = scenario.ids.next()
            groups.append(group)
            return scenario.command(.createGroup(groupID: group, name: "Trip \(groups.count)", members: people + contacts))
        case 9:
            guard let group = pick(groups) else { fallthrough }
            let split: GroupSplit = Bool.random(using: &random) ? .equal(people + contacts) : .shares(people.map { MemberWeight(person: $0, weight: Int64.random(in: 1...3, using: &random)) })
            return scenario.command(.recordGroupExpense(
                expenseID: scenario.ids.next(), groupID: group, paidBy: payer, amount: Scenario.chf(abs(amount) + 1),
                date: date, note: nil, split: split))
        case 10:
            return scenario.command(.setSplitRatio(mode: .manual, ratios: [
                scenario.ratio(scenario.alice, Int64.random(in: 0...10_000, using: &random)), scenario.ratio(scenario.bob, 4_000)]))
        case 11:
            return scenario.command(.recordBalance(walletID: scenario.joint, date: date, balance: Scenario.chf(amount * 3)))
        case 12:
            // Unknown wallet: always rejected.
            let entry = TransactionEntry(kind: .expense, amount: Scenario.chf(abs(amount) + 1), walletID: scenario.ids.next(),
                                         categoryID: scenario.groceries, date: date, payer: payer)
            return scenario.command(.recordTransaction(transactionID: scenario.ids.next(), entry: entry), by: payer)
        case 13:
            let id: TransferID = scenario.ids.next()
            transfers.append(id)
            let sent = abs(amount) % 20_000 + 1
            let sameWallet = Int.random(in: 0..<6, using: &random) == 0
            return scenario.command(.recordTransfer(
                transferID: id, fromWalletID: scenario.joint, toWalletID: sameWallet ? scenario.joint : scenario.euroCard,
                amountSent: Scenario.chf(sent), amountReceived: Scenario.eur(sent * 9 / 10 + 1), date: date, note: nil))
        case 14:
            guard let id = pick(transfers) else { fallthrough }
            return scenario.command(.deleteTransfer(transferID: id))
        case 15:
            return scenario.command(.setPayday(day: Int.random(in: 1...31, using: &random)))
        case 16:
            return scenario.command(.allocateBudget(
                categoryID: Bool.random(using: &random) ? scenario.groceries : scenario.restaurants,
                amount: Scenario.chf(abs(amount) % 80_000), fromPeriod: nil))
        case 17:
            return scenario.command(.closePeriod)
        case 18:
            guard let target = pick(recentCommandIDs) else { fallthrough }
            return scenario.command(Int.random(in: 0..<3, using: &random) == 0 ? .redo(targetCommandID: target) : .undo(targetCommandID: target))
        default:
            // Undo of a command that never ran, or of a fresh id: unknownCommand (T5).
            return scenario.command(.undo(targetCommandID: scenario.ids.next()))
        }
    }
}
