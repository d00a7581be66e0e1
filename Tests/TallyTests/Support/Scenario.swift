import SystemPackage
import Tally
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// A two-person household (Alice admin, Bob member) with reproducible ids and a host clock
/// that advances one minute per command (G3, G5).
struct Scenario {
    var ids = DeterministicIDGenerator(seed: 2026)
    let household: HouseholdID
    let alice: PersonID
    let bob: PersonID
    let joint: WalletID
    let euroCard: WalletID
    /// Milliseconds of 2026-01-05T10:00:00Z.
    var clock: Int64 = 1_767_607_200_000

    init() {
        household = ids.next()
        alice = ids.next()
        bob = ids.next()
        joint = ids.next()
        euroCard = ids.next()
    }

    var groceries: CategoryID { CategoryPresets.expense[0].categoryID(in: household) }
    var restaurants: CategoryID { CategoryPresets.expense[3].categoryID(in: household) }
    var salary: CategoryID { CategoryPresets.income[0].categoryID(in: household) }

    static func chf(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .chf) }
    static func eur(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .eur) }
    static func date(_ text: String) -> LocalDate {
        (try? LocalDate(iso: text)) ?? LocalDate.min
    }

    /// A command by `actor` (default Alice), recorded one minute after the previous one.
    mutating func command(_ action: CommandAction, by actor: PersonID? = nil) -> Command {
        clock += 60_000
        return Command(commandID: ids.next(), actor: actor ?? alice, recordedAt: Timestamp(millisecondsSinceEpoch: clock), action: action)
    }

    /// Moves the host clock to the start of `date` plus ten hours.
    mutating func advance(to date: String) {
        clock = Scenario.date(date).daysSinceEpoch * 86_400_000 + 36_000_000
    }

    /// Household, Bob, a CHF joint account with CHF 1000 and a EUR card.
    mutating func setup() -> [Command] {
        [
            command(.createHousehold(householdID: household, name: "Muster", baseCurrency: .chf, adminName: "Alice")),
            command(.addMember(personID: bob, name: "Bob")),
            command(.openWallet(walletID: joint, name: "Joint", kind: .bank, openingBalance: Scenario.chf(100_000),
                                openedOn: Scenario.date("2026-01-01"), owner: nil)),
            command(.openWallet(walletID: euroCard, name: "Euro card", kind: .card, openingBalance: Scenario.eur(0),
                                openedOn: Scenario.date("2026-01-01"), owner: alice)),
        ]
    }

    /// An expense entry in the joint account.
    func expense(_ minorUnits: Int64, shared: Bool = false, payer: PersonID? = nil, category: CategoryID? = nil,
                 override: [MemberRatio]? = nil) -> TransactionEntry {
        TransactionEntry(
            kind: .expense, amount: Scenario.chf(minorUnits), walletID: joint, categoryID: category ?? groceries,
            date: Scenario.date("2026-01-05"), payer: payer ?? alice, isShared: shared, ratioOverride: override)
    }

    func ratio(_ person: PersonID, _ basisPoints: Int64) -> MemberRatio {
        MemberRatio(person: person, ratio: (try? Ratio(basisPoints: basisPoints)) ?? .zero)
    }
}

/// A ledger in a fresh temporary directory, without fsync (tests only).
struct TestLedger {
    let directory: TemporaryDirectory
    let ledger: Ledger

    /// - Parameter durability: `.none` (no fsync) by default; the read-side store commits only
    /// what is durable, so tests of queries ask for `.synchronous`.
    static func make(_ label: String = "ledger", durability: DurabilityPolicy = .none) async throws -> TestLedger {
        let directory = try TemporaryDirectory("tally-engine-\(label)")
        let ledger = try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: durability))
        return TestLedger(directory: directory, ledger: ledger)
    }

    func reopen() async throws -> Ledger {
        try await Ledger.open(at: directory.appending("ledger"), options: LedgerOptions(durability: .none))
    }
}

/// Executes `command`, expecting a rejection with `code` and `rule`, and that nothing was appended.
func expectRejection(
    _ ledger: Ledger, _ commands: [Command], code: String, rule: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let before = await ledger.lastSequenceNumber
    do {
        try await ledger.execute(commands)
        Issue.record("expected \(code) [\(rule)], but the command was accepted", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.rule == rule, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
    }
    let after = await ledger.lastSequenceNumber
    #expect(after == before, "a rejected command appended events", sourceLocation: sourceLocation)
}

func expectRejection(
    _ ledger: Ledger, _ command: Command, code: String, rule: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await expectRejection(ledger, [command], code: code, rule: rule, sourceLocation: sourceLocation)
}
