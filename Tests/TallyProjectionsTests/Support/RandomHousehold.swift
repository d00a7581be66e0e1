import TallyModel
import TallyProjections
import TallyTestSupport

/// A random but valid household history: several members, wallets in two currencies, shared and
/// personal transactions with edits, deletes and restores, transfers, balance points,
/// settlements, groups with expenses, allocations and period closes in date order.
struct RandomHousehold {
    var scenario = Scenario()
    /// Test-side model of transactions: current details and liveness.
    var transactions: [TransactionID: (details: TransactionDetails, isLive: Bool)] = [:]
    var transactionOrder: [TransactionID] = []
    var wallets: [(id: WalletID, currency: Currency, opening: Int64, kind: WalletKind)] = []
    var groups: [(id: GroupID, members: [PersonID])] = []
    var transferUnits: [WalletID: Int64] = [:]
    let people = [Scenario.alice, Scenario.bob, Scenario.carol, Scenario.dave]

    init(seed: UInt64, steps: Int) {
        var random = SeededRandom(seed: seed)
        scenario.rate(.eur, .chf, "0.95", on: "2026-01-01")
        for (name, currency, kind) in [("Bank", Currency.chf, WalletKind.bank), ("Euro", .eur, .bank), ("Card", .chf, .card)] {
            let opening = Int64.random(in: 0...1_000_000, using: &random)
            wallets.append((scenario.wallet(name, kind, opening: opening, currency: currency), currency, opening, kind))
        }
        for categoryID in [Scenario.groceries, Scenario.restaurants] {
            scenario.add(.budgetAllocated(BudgetAllocated(categoryID: categoryID, amount: chf(Int64.random(in: 0...200_000, using: &random)), fromPeriod: d("2026-01-01"))))
        }
        var month = 1
        for step in 0..<steps {
            if step > 0, step % max(1, steps / 5) == 0, month < 6 {
                let start = Self.day(month: month, day: 1)
                scenario.add(.periodClosed(PeriodClosed(periodStart: start, periodEnd: start.endOfMonth)))
                month += 1
            }
            addRandomEvent(&random, month: month)
        }
    }

    func randomShares(_ units: Int64, _ currency: Currency, _ random: inout SeededRandom) -> [(PersonID, Int64)] {
        let count = Int.random(in: 2...4, using: &random)
        var remaining = units
        var shares: [(PersonID, Int64)] = []
        for (index, person) in people.prefix(count).enumerated() {
            let part = index == count - 1 ? remaining : Int64.random(in: 0...remaining, using: &random)
            shares.append((person, part))
            remaining -= part
        }
        return shares
    }

    mutating func randomDetails(_ random: inout SeededRandom, month: Int) -> TransactionDetails {
        let wallet = random.pick(wallets)
        let units = Int64.random(in: 1...100_000, using: &random)
        let isIncome = Int.random(in: 0..<5, using: &random) == 0
        let shared = Bool.random(using: &random)
        let date = Self.day(month: Int.random(in: max(1, month - 1)...month, using: &random), day: Int.random(in: 1...28, using: &random))
        return Scenario.details(
            isIncome ? .income : .expense, units, wallet.currency, wallet: wallet.id,
            category: isIncome ? Scenario.salary : random.pick([Scenario.groceries, Scenario.restaurants]),
            on: date.isoString, payer: random.pick(people),
            shares: shared ? randomShares(units, wallet.currency, &random) : nil)
    }

    mutating func addRandomEvent(_ random: inout SeededRandom, month: Int) {
        switch Int.random(in: 0..<12, using: &random) {
        case 0...3:
            let details = randomDetails(&random, month: month)
            let id: TransactionID = scenario.id()
            scenario.add(.transactionRecorded(TransactionRecorded(transactionID: id, details: details)))
            transactions[id] = (details, true)
            transactionOrder.append(id)
        case 4 where !transactionOrder.isEmpty:
            let id = random.pick(transactionOrder)
            let details = randomDetails(&random, month: month)
            scenario.edit(id, details)
            transactions[id]?.details = details
        case 5 where !transactionOrder.isEmpty:
            let id = random.pick(transactionOrder)
            if transactions[id]?.isLive == true { scenario.delete(id) } else { scenario.restore(id) }
            transactions[id]?.isLive.toggle()
        case 6:
            let source = wallets[0], target = wallets[Int.random(in: 1...2, using: &random)]
            let sent = Int64.random(in: 1...50_000, using: &random)
            let received = target.currency == .eur ? sent * 105 / 100 + 1 : sent
            scenario.add(.transferRecorded(TransferRecorded(
                transferID: scenario.id(), fromWalletID: source.id, toWalletID: target.id,
                amountSent: chf(sent), amountReceived: Money(minorUnits: received, currency: target.currency),
                date: Self.day(month: month, day: 15), note: nil)))
            transferUnits[source.id, default: 0] -= sent * (source.kind.isLiability ? -1 : 1)
            transferUnits[target.id, default: 0] += received * (target.kind.isLiability ? -1 : 1)
        case 7:
            let from = random.pick(people), to = random.pick(people)
            guard from != to else { return }
            let covers: [SettledItem]? = Bool.random(using: &random) || transactionOrder.isEmpty ? nil
                : [.transaction(random.pick(transactionOrder))]
            scenario.add(.settlementRecorded(SettlementRecorded(
                settlementID: scenario.id(), from: from, to: to, amount: chf(Int64.random(in: 1...30_000, using: &random)),
                date: Self.day(month: month, day: 20), covers: covers, isAdvance: true, groupID: nil)))
        case 8:
            let groupID: GroupID = scenario.id()
            let members = Array(people.shuffled(using: &random).prefix(Int.random(in: 2...4, using: &random)))
            scenario.add(.groupCreated(GroupCreated(groupID: groupID, name: "G", members: members)))
            groups.append((groupID, members))
        case 9 where !groups.isEmpty:
            let group = random.pick(groups)
            let currency: Currency = Bool.random(using: &random) ? .chf : .eur
            let units = Int64.random(in: 1...90_000, using: &random)
            let weights = group.members.map { (key: $0, weight: Int64.random(in: 1...3, using: &random)) }
            guard let owed = try? Allocation.allocate(units, weights: weights, preferred: group.members[0]) else {
                preconditionFailure("weights of 1...3 always allocate")
            }
            scenario.add(.groupExpenseRecorded(GroupExpenseRecorded(
                expenseID: scenario.id(), groupID: group.id, paidBy: random.pick(group.members),
                amount: Money(minorUnits: units, currency: currency), date: Self.day(month: month, day: 9),
                note: nil, split: .shares(weights.map { MemberWeight(person: $0.key, weight: $0.weight) }),
                owed: zip(group.members, owed).map { PersonShare(person: $0, amount: Money(minorUnits: $1, currency: currency)) })))
        case 10 where !groups.isEmpty:
            let group = random.pick(groups)
            scenario.add(.settlementRecorded(SettlementRecorded(
                settlementID: scenario.id(), from: group.members[0], to: group.members[1],
                amount: chf(Int64.random(in: 1...10_000, using: &random)), date: Self.day(month: month, day: 21),
                covers: nil, isAdvance: true, groupID: group.id)))
        default:
            let wallet = wallets[0]
            scenario.add(.balanceRecorded(BalanceRecorded(
                walletID: wallet.id, date: Self.day(month: month, day: 28),
                balance: chf(Int64.random(in: 0...1_000_000, using: &random)))))
        }
    }

    /// The date `day` of `month` in 2026; the generator only picks days 1...28 of months 1...6.
    static func day(month: Int, day: Int) -> LocalDate {
        guard let date = try? LocalDate(year: 2026, month: month, day: day) else {
            preconditionFailure("2026-\(month)-\(day) is not a date")
        }
        return date
    }

    /// Opening + signed sum of live transactions + transfers, per wallet (W3).
    func expectedBalance(_ walletID: WalletID) -> Int64? {
        guard let wallet = wallets.first(where: { $0.id == walletID }) else { return nil }
        var total = wallet.opening + (transferUnits[walletID] ?? 0)
        for (details, isLive) in transactions.values where isLive && details.walletID == walletID {
            let signed = details.kind == .income ? details.amount.minorUnits : -details.amount.minorUnits
            total += wallet.kind.isLiability ? -signed : signed
        }
        return total
    }
}
