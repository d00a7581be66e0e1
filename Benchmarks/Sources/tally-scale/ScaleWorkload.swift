import Tally
import TallyModel

/// The commands both subjects execute: a two-person household (Anna admin, Ben member) with
/// four CHF wallets, then `recordTransaction` commands, each one event: nine expenses to one
/// income, the wallets in turn, Anna and Ben in turn, each paid by its author.
///
/// The household, people, wallets and categories come from `seed`; the transactions of a
/// `phase` (build, the write measurements, the apply file) come from their own id stream, so
/// phases never collide and the same seed always gives the same commands. The host clock starts
/// at 2026-01-05T10:00:00Z and advances one millisecond per command: 1.2M commands stay inside
/// one day, so no period end is crossed and no `PeriodClosed` joins a command's events.
struct ScaleWorkload {
    /// Where a stream of transactions belongs; each phase has its own ids.
    enum Phase: UInt64 {
        case build = 1
        case writes = 2
        case apply = 3
    }

    static let walletCount = 4
    static let openingMinorUnits: Int64 = 1_000_000_000
    private static let clockStartMilliseconds: Int64 = 1_767_607_200_000

    let household: HouseholdID
    let anna: PersonID
    let ben: PersonID
    let wallets: [WalletID]
    private let expenseCategory: CategoryID
    private let incomeCategory: CategoryID
    private var ids: DeterministicIDGenerator
    /// Commands issued so far in the whole ledger (setup included): drives the clock.
    private(set) var commandIndex: Int

    /// A workload whose next transaction is command number `commandIndex` of the ledger.
    init(seed: UInt64, phase: Phase, commandIndex: Int = 0) {
        var setupIDs = DeterministicIDGenerator(seed: seed)
        household = setupIDs.next()
        anna = setupIDs.next()
        ben = setupIDs.next()
        wallets = (0..<Self.walletCount).map { _ in setupIDs.next() }
        expenseCategory = CategoryPresets.expense[0].categoryID(in: household)
        incomeCategory = CategoryPresets.income[0].categoryID(in: household)
        ids = DeterministicIDGenerator(seed: seed &+ phase.rawValue &* 0x9E37_79B9_7F4A_7C15)
        self.commandIndex = commandIndex
    }

    static let chf = checked { () throws(ModelError) in try Currency("CHF") }
    static let day = checked { () throws(ModelError) in try LocalDate(year: 2026, month: 1, day: 5) }
    private static let openedOn = checked { () throws(ModelError) in try LocalDate(year: 2026, month: 1, day: 1) }

    /// The household, Ben, and the four wallets (each opened with CHF 10,000,000.00).
    mutating func setup() -> [Command] {
        var commands = [
            command(.createHousehold(householdID: household, name: "Scale", baseCurrency: Self.chf, adminName: "Anna"), by: anna),
            command(.addMember(personID: ben, name: "Ben"), by: anna),
        ]
        for (index, wallet) in wallets.enumerated() {
            commands.append(command(.openWallet(
                walletID: wallet, name: "Wallet \(index + 1)", kind: index == 3 ? .cash : .bank,
                openingBalance: Money(minorUnits: Self.openingMinorUnits, currency: Self.chf),
                openedOn: Self.openedOn, owner: nil), by: anna))
        }
        return commands
    }

    /// The next `count` transactions.
    mutating func next(_ count: Int) -> [Command] {
        (0..<count).map { _ in nextTransaction() }
    }

    /// The next transaction: an income every tenth command, otherwise an expense of CHF 2-92.
    mutating func nextTransaction() -> Command {
        let index = commandIndex
        let author = index % 2 == 0 ? anna : ben
        let isIncome = index % 10 == 9
        let minorUnits = isIncome ? 250_000 + Int64(index % 1_000) : 200 + Int64((index &* 7_919) % 9_000)
        let entry = TransactionEntry(
            kind: isIncome ? .income : .expense, amount: Money(minorUnits: minorUnits, currency: Self.chf),
            walletID: wallets[index % wallets.count], categoryID: isIncome ? incomeCategory : expenseCategory,
            date: Self.day, payer: author)
        let transactionID: TransactionID = ids.next()
        return command(.recordTransaction(transactionID, entry), by: author)
    }

    private mutating func command(_ action: CommandAction, by actor: PersonID) -> Command {
        let recordedAt = Timestamp(millisecondsSinceEpoch: Self.clockStartMilliseconds + Int64(commandIndex))
        commandIndex += 1
        return Command(commandID: ids.next(), actor: actor, recordedAt: recordedAt, action: action)
    }

    private static func checked<Value>(_ body: () throws(ModelError) -> Value) -> Value {
        do {
            return try body()
        } catch {
            preconditionFailure("scale workload built an invalid value: \(error)")
        }
    }
}
