import Foundation
import SystemPackage
import Tally
import TallyModel
import TallyProjections

/// Embeds the engine: opens a ledger in a temporary directory, records a month of a
/// two-person household (wallets, incomes, expenses, shared expenses at 60/40, a settlement),
/// observes `changes` in a task, and prints balances and debts.
@main
struct HostExample {
    static func main() async throws {
        let directory = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-host-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let ledger = try await Ledger.open(at: directory)

        // Observe committed events, as a UI would.
        let changes = ledger.changes
        let observer = Task {
            var readModels = Projections()
            for await committed in changes { readModels.apply(committed.event, sequenceNumber: committed.sequenceNumber) }
            return readModels
        }

        var ids = DeterministicIDGenerator(seed: 42)
        let alice: PersonID = ids.next(), bob: PersonID = ids.next()
        let joint: WalletID = ids.next(), cash: WalletID = ids.next()
        let rent: CategoryID = ids.next()
        var minute: Int64 = 0
        func command(_ actor: PersonID, _ action: CommandAction) -> Command {
            minute += 1
            // 2026-03-01T08:00Z plus one minute per command: the host supplies recordedAt (G3).
            return Command(commandID: ids.next(), actor: actor, recordedAt: Timestamp(millisecondsSinceEpoch: 1_772_352_000_000 + minute * 60_000), action: action)
        }
        func chf(_ francs: Int64) -> Money { Money(minorUnits: francs * 100, currency: .chf) }
        func day(_ day: Int) throws -> LocalDate { try LocalDate(year: 2026, month: 3, day: day) }
        let household: HouseholdID = ids.next()
        let salary = CategoryPresets.creationEvents(in: household).first { $0.name == "Salary" }?.categoryID ?? rent

        try await ledger.execute([
            command(alice, .createHousehold(householdID: household, name: "Host example", baseCurrency: try Currency("CHF"), adminName: "Alice")),
            command(alice, .addMember(personID: bob, name: "Bob")),
            command(alice, .openWallet(walletID: joint, name: "Joint account", kind: .bank, openingBalance: chf(2000), openedOn: try day(1), owner: nil)),
            command(bob, .openWallet(walletID: cash, name: "Bob cash", kind: .cash, openingBalance: chf(300), openedOn: try day(1), owner: bob)),
            command(alice, .createCategory(categoryID: rent, name: "Rent", group: .expense, budgetType: .needs, shareable: true, icon: nil, color: nil)),
            command(alice, .setSplitRatio(mode: .manual, ratios: [MemberRatio(person: alice, ratio: try Ratio(basisPoints: 6000)), MemberRatio(person: bob, ratio: try Ratio(basisPoints: 4000))])),
        ])
        try await ledger.execute(command(alice, .recordTransaction(ids.next(), TransactionEntry(
            kind: .income, amount: chf(5400), walletID: joint, categoryID: salary, date: try day(1), note: "Salary", payer: alice))))
        try await ledger.execute(command(alice, .recordTransaction(ids.next(), TransactionEntry(
            kind: .expense, amount: chf(2400), walletID: joint, categoryID: rent, date: try day(2), note: "March rent", payer: alice, isShared: true))))
        try await ledger.execute(command(bob, .recordTransaction(ids.next(), TransactionEntry(
            kind: .expense, amount: chf(85), walletID: cash, categoryID: rent, date: try day(9), note: "Heating share", payer: bob, isShared: true))))
        try await ledger.execute(command(bob, .recordSettlement(
            settlementID: ids.next(), from: bob, to: alice, amount: chf(500), date: try day(28), covers: nil, isAdvance: false, groupID: nil)))

        try await ledger.close()
        let readModels = await observer.value
        print("Balances")
        for wallet in try readModels.wallets.balances() {
            print("  \(wallet.name): \(wallet.balance.formatted())")
        }
        print("Debts")
        let names = [alice: "Alice", bob: "Bob"]
        for pair in try readModels.debts.householdBalances() {
            guard let debtor = pair.debtor, let creditor = pair.creditor else { continue }
            print("  \(names[debtor] ?? "?") owes \(names[creditor] ?? "?") \(pair.amount.formatted())")
        }
    }
}
