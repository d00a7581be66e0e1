import Tally
import TallyModel

/// Commands for the personal-text sealing rows: a two-person household (Anna admin, Ben
/// member, as in `Tests/TallyTestSupport/Scenario.swift`) with a joint CHF account, then
/// personal expenses taking turns between the two, each with or without a note.
///
/// The same seed gives the same commands, and the variants with and without notes differ only
/// in the note, so the events differ only in one personal text each.
struct SealingWorkload {
    static let batchSize = 1000
    /// Short notes like the generated workload's (merchant names, 3-9 bytes).
    static let notes = ["Migros", "Coop", "SBB", "Denner", "Galaxus", "Apotheke", "Swisscom", "Zalando", "Lidl"]

    let withNotes: Bool
    private var ids: DeterministicIDGenerator
    private let household: HouseholdID
    private let anna: PersonID
    private let ben: PersonID
    private let joint: WalletID
    private var issued = 0
    /// Host clock: 2026-01-05T10:00:00Z, one second per command (no period end is crossed for
    /// fewer than 50,000 commands, so no `PeriodClosed` joins the batches).
    private var clock: Int64 = 1_767_607_200_000

    init(seed: UInt64, withNotes: Bool) {
        self.withNotes = withNotes
        ids = DeterministicIDGenerator(seed: seed)
        household = ids.next()
        anna = ids.next()
        ben = ids.next()
        joint = ids.next()
    }

    private static let chf = Self.checked { () throws(ModelError) in try Currency("CHF") }
    private static let day = Self.checked { () throws(ModelError) in try LocalDate(year: 2026, month: 1, day: 5) }

    private mutating func command(_ action: CommandAction, by actor: PersonID) -> Command {
        clock += 1_000
        return Command(commandID: ids.next(), actor: actor, recordedAt: Timestamp(millisecondsSinceEpoch: clock), action: action)
    }

    /// Household, second member, joint account.
    mutating func setup() -> [Command] {
        [
            command(.createHousehold(householdID: household, name: "Muster", baseCurrency: Self.chf, adminName: "Anna"), by: anna),
            command(.addMember(personID: ben, name: "Ben"), by: anna),
            command(.openWallet(
                walletID: joint, name: "Joint", kind: .bank, openingBalance: Money(minorUnits: 100_000_000, currency: Self.chf),
                openedOn: Self.checked { () throws(ModelError) in try LocalDate(year: 2026, month: 1, day: 1) }, owner: nil), by: anna),
        ]
    }

    /// The next `count` expenses, by Anna and Ben in turn, each paid by its author.
    mutating func nextBatch(_ count: Int = batchSize) -> [Command] {
        (0..<count).map { _ in
            let author = issued % 2 == 0 ? anna : ben
            let note = withNotes ? Self.notes[issued % Self.notes.count] : nil
            let entry = TransactionEntry(
                kind: .expense, amount: Money(minorUnits: 200 + Int64(issued % 7_000), currency: Self.chf), walletID: joint,
                categoryID: CategoryPresets.expense[0].categoryID(in: household), date: Self.day, note: note, payer: author)
            issued += 1
            let transactionID: TransactionID = ids.next()
            return command(.recordTransaction(transactionID: transactionID, entry: entry), by: author)
        }
    }

    private static func checked<Value>(_ body: () throws(ModelError) -> Value) -> Value {
        do {
            return try body()
        } catch {
            preconditionFailure("sealing workload built an invalid value: \(error)")
        }
    }
}
