import Tally
import TallyModel
import TallyWorkload

/// The commands both subjects execute: a two-person household (Anna admin, Ben member) with
/// four CHF wallets, then `recordTransaction` commands, each one event, that look like a
/// household's list (`ScaleVocabulary`): one income to nine expenses, the ten expense
/// categories in a household's mix, amounts from the payee, a note (the payee) on 65% of them
/// and a rare word on one in 2,000, a tag on 12%, the wallets weighted 40/20/30/10, Anna and
/// Ben in turn, each paid by its author.
///
/// Business dates: the transactions of a phase with `plannedTransactions` (the build, the apply
/// file) are spread evenly over the 24 months from 2024-01-01 in recording order, and a quarter
/// of them are backdated by 1-10 days (entered late); the other phases (the write and
/// observation measurements) record "today", 2026-01-05, or up to 10 days before. No payday is
/// set, so the ledger has no pay periods and no `PeriodClosed` is ever due; the engine accepts
/// any business date (B6: a backdated entry is just an entry).
///
/// The household, people, wallets and categories come from `seed`; the transactions of a
/// `phase` come from their own id and choice streams, so phases never collide and the same
/// seed always gives the same commands. The host clock starts at 2026-01-05T10:00:00Z and
/// advances one millisecond per command: 1.2M commands stay inside one day.
struct ScaleWorkload {
    /// Where a stream of transactions belongs; each phase has its own ids and choices.
    enum Phase: UInt64 {
        case build = 1
        case writes = 2
        case apply = 3
        case observe = 4
        case people = 5
    }

    static let walletCount = 4
    /// How often each wallet is used, in percent: checking, shared account, card, cash.
    static let walletWeights = [40, 20, 30, 10]
    static let openingMinorUnits: Int64 = 1_000_000_000
    private static let clockStartMilliseconds: Int64 = 1_767_607_200_000
    /// Share of transactions backdated by 1...`backdatedDaysMax` days, in percent.
    private static let backdatedPercent = 25
    private static let backdatedDaysMax: Int64 = 10

    let household: HouseholdID
    let anna: PersonID
    let ben: PersonID
    let wallets: [WalletID]
    private var ids: DeterministicIDGenerator
    private var choices: SplitMix64
    /// Transactions the phase will issue, for spreading their dates; 0: dated "today".
    private let plannedTransactions: Int
    private var transactionsIssued = 0
    private var peopleIssued = 0
    /// Commands issued so far in the whole ledger (setup included): drives the clock.
    private(set) var commandIndex: Int

    /// A workload whose next transaction is command number `commandIndex` of the ledger.
    /// - Parameter plannedTransactions: how many transactions the phase issues, to spread
    ///   their dates over the history; 0 dates them "today".
    init(seed: UInt64, phase: Phase, commandIndex: Int = 0, plannedTransactions: Int = 0) {
        var setupIDs = DeterministicIDGenerator(seed: seed)
        household = setupIDs.next()
        anna = setupIDs.next()
        ben = setupIDs.next()
        wallets = (0..<Self.walletCount).map { _ in setupIDs.next() }
        ids = DeterministicIDGenerator(seed: seed &+ phase.rawValue &* 0x9E37_79B9_7F4A_7C15)
        choices = SplitMix64(seed: (seed ^ 0xC0FF_EE00_5CA1_E000) &+ phase.rawValue &* 0xD6E8_FEB8_6659_FD93)
        self.plannedTransactions = plannedTransactions
        self.commandIndex = commandIndex
    }

    static let chf = ScaleVocabulary.checked { () throws(ModelError) in try Currency("CHF") }
    /// "Today" by the host clock: the business date of the phases without a plan.
    static let day = ScaleVocabulary.checked { () throws(ModelError) in try LocalDate(year: 2026, month: 1, day: 5) }
    private static let openedOn = ScaleVocabulary.checked { () throws(ModelError) in try LocalDate(year: 2023, month: 12, day: 1) }
    /// The history's first and last day (24 months).
    static let historyStart = ScaleVocabulary.firstMonth.firstDay
    static let historyEnd = ScaleVocabulary.checked { () throws(ModelError) in
        try ScaleVocabulary.firstMonth.adding(months: ScaleVocabulary.months - 1).lastDay
    }

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

    /// The next `count` people: `addPerson` commands by Anna (contacts "Person n"), each
    /// sealing the name of someone new, so each makes a new personal key (P2).
    mutating func people(_ count: Int) -> [Command] {
        (0..<count).map { _ in
            peopleIssued += 1
            let person: PersonID = ids.next()
            return command(.addPerson(personID: person, name: "Person \(peopleIssued)"), by: anna)
        }
    }

    /// The next transaction: an income every tenth command, otherwise an expense.
    mutating func nextTransaction() -> Command {
        let author = commandIndex % 2 == 0 ? anna : ben
        let isIncome = commandIndex % 10 == 9
        let use = ScaleVocabulary.category(at: choices.below(100), in: isIncome ? ScaleVocabulary.incomes : ScaleVocabulary.expenses)
        let payee = choices.pick(use.payees)
        let minorUnits = choices.value(in: payee.minorUnits)
        var note = choices.chance(percent: ScaleVocabulary.notePercent) ? payee.note : nil
        if choices.below(ScaleVocabulary.rareNoteOneIn) == 0 { note = choices.pick(ScaleVocabulary.rareWords) }
        let tags = choices.chance(percent: ScaleVocabulary.tagPercent) ? [choices.pick(ScaleVocabulary.tags)] : []
        let entry = TransactionEntry(
            kind: isIncome ? .income : .expense, amount: Money(minorUnits: minorUnits, currency: Self.chf),
            walletID: wallets[nextWalletIndex()], categoryID: ScaleVocabulary.categoryID(use.presetKey, in: household),
            date: nextDate(), note: note, tags: tags, payer: author)
        let transactionID: TransactionID = ids.next()
        transactionsIssued += 1
        return command(.recordTransaction(transactionID: transactionID, entry: entry), by: author)
    }

    private mutating func nextWalletIndex() -> Int {
        var roll = choices.below(100)
        for (index, weight) in Self.walletWeights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return Self.walletWeights.count - 1
    }

    /// The business date of the next transaction: its place in the planned history (or
    /// today), backdated for a quarter of them, never before the history's first day.
    private mutating func nextDate() -> LocalDate {
        let historyDays = Self.historyStart.days(until: Self.historyEnd) + 1
        let planned: LocalDate
        if plannedTransactions > 0 {
            let offset = Int64(min(transactionsIssued, plannedTransactions - 1)) * historyDays / Int64(plannedTransactions)
            planned = ScaleVocabulary.checked { () throws(ModelError) in try Self.historyStart.adding(days: offset) }
        } else {
            planned = Self.day
        }
        guard choices.chance(percent: Self.backdatedPercent) else { return planned }
        let daysBack = choices.value(in: 1...Self.backdatedDaysMax)
        let backdated = ScaleVocabulary.checked { () throws(ModelError) in try planned.adding(days: -daysBack) }
        return max(backdated, Self.historyStart)
    }

    private mutating func command(_ action: CommandAction, by actor: PersonID) -> Command {
        let recordedAt = Timestamp(millisecondsSinceEpoch: Self.clockStartMilliseconds + Int64(commandIndex))
        commandIndex += 1
        return Command(commandID: ids.next(), actor: actor, recordedAt: recordedAt, action: action)
    }
}
