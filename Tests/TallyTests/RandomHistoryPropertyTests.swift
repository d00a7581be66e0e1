import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Random command histories (valid and invalid) through the real engine: the invariants of
/// DOMAIN hold after every run, and replay == live == checkpoint + tail.
@Suite("Random histories")
struct RandomHistoryPropertyTests {
    /// A random next command over what exists so far; some are invalid on purpose.
    struct Generator {
        var scenario = Scenario()
        var random: SeededRandom
        var transactions: [TransactionID] = []
        var groups: [TallyModel.GroupID] = []
        var contacts: [PersonID] = []
        var day = 5

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
        }

        mutating func pick<T>(_ items: [T]) -> T? {
            items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
        }

        mutating func next() -> Command {
            if Int.random(in: 0..<10, using: &random) == 0, day < 27 { day += 1 }
            let date = Scenario.date(String(format: "2026-01-%02d", day))
            let people = [scenario.alice, scenario.bob]
            let payer = pick(people) ?? scenario.alice
            let amount = Int64.random(in: -50...60_000, using: &random)
            switch Int.random(in: 0..<12, using: &random) {
            case 0...3:
                let id: TransactionID = scenario.ids.next()
                transactions.append(id)
                var entry = scenario.expense(amount, shared: Bool.random(using: &random), payer: payer)
                entry.date = date
                if Int.random(in: 0..<5, using: &random) == 0 {
                    entry.ratioOverride = [scenario.ratio(scenario.alice, Int64.random(in: 50...9_950, using: &random)), scenario.ratio(scenario.bob, 5_000)]
                }
                return scenario.command(.recordTransaction(id, entry), by: payer)
            case 4:
                let id: TransactionID = scenario.ids.next()
                transactions.append(id)
                let entry = TransactionEntry(kind: .income, amount: Scenario.chf(abs(amount) + 1), walletID: scenario.joint,
                                             categoryID: scenario.salary, date: date, payer: payer)
                return scenario.command(.recordTransaction(id, entry), by: payer)
            case 5:
                guard let id = pick(transactions) else { fallthrough }
                var entry = scenario.expense(abs(amount) + 1, shared: Bool.random(using: &random), payer: payer)
                entry.date = date
                return scenario.command(.editTransaction(id, entry), by: payer)
            case 6:
                guard let id = pick(transactions) else { fallthrough }
                return scenario.command(Bool.random(using: &random) ? .deleteTransaction(id) : .restoreTransaction(id))
            case 7:
                return scenario.command(.recordSettlement(
                    settlementID: scenario.ids.next(), from: scenario.bob, to: scenario.alice, amount: Scenario.chf(abs(amount) % 5_000 + 1),
                    date: date, covers: nil, isAdvance: false, groupID: nil))
            case 8:
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
            default:
                return scenario.command(.recordBalance(scenario.joint, date: date, balance: Scenario.chf(amount * 3)))
            }
        }
    }

    @Test("random histories keep S3/S8 invariants and replay == live == checkpoint + tail", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomHistory(seed: UInt64) async throws {
        let directory = try TemporaryDirectory("tally-random")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = LedgerOptions(durability: .none)
        options.checkpointIntervalEvents = 37
        var generator = Generator(seed: seed)
        let ledger = try await Ledger.open(at: path, options: options)
        for command in generator.scenario.setup() { try await ledger.execute(command) }
        var rejected = 0
        for _ in 0..<300 {
            let batch = (0..<Int.random(in: 1...3, using: &generator.random)).map { _ in generator.next() }
            let before = await ledger.lastSequenceNumber
            do {
                try await ledger.execute(batch)
            } catch {
                rejected += 1
                #expect(await ledger.lastSequenceNumber == before, "seed \(seed): a rejected batch appended (G6)")
            }
        }
        #expect(rejected > 0 && rejected < 300, "seed \(seed): the mix must have valid and invalid batches")
        let live = await ledger.readModels
        let liveState = await ledger.state
        try await ledger.close()

        let replayed = try LedgerReplay.replay(at: path)
        #expect(try replayed.readModels.canonicalJSON().text == live.canonicalJSON().text, "seed \(seed): replay == live")
        #expect(replayed.state == liveState)
        let audit = try LedgerAudit.audit(at: path)
        #expect(audit.isClean, "seed \(seed): \(audit.problems.prefix(3))")
        for groupID in live.debts.groupIDs {
            for (_, balances) in try live.debts.groupBalances(groupID) {
                #expect(balances.reduce(0) { $0 + $1.balance.minorUnits } == 0, "seed \(seed): S8")
            }
        }
        // Checkpoint + tail: drop the newest checkpoint so open replays a tail.
        let checkpoints = path.appending(Ledger.checkpointDirectoryName).string
        if let newest = try FileManager.default.contentsOfDirectory(atPath: checkpoints).filter({ $0.hasSuffix(".checkpoint") }).sorted().last {
            try FileManager.default.removeItem(atPath: checkpoints + "/" + newest)
        }
        let reopened = try await Ledger.open(at: path, options: options)
        #expect(reopened.openReport.checkpointSequenceNumber != nil)
        #expect(try await reopened.readModels.canonicalJSON().text == live.canonicalJSON().text, "seed \(seed): checkpoint + tail == live")
        #expect(await reopened.state == liveState)
        try await reopened.close()
    }
}
