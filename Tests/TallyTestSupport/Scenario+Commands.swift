import Tally
import TallyModel

/// The scenario as commands for the engine.
extension Scenario {
    /// A command by `actor` (default Alice), recorded one minute after the previous one.
    public mutating func command(_ action: CommandAction, by actor: PersonID? = nil) -> Command {
        clock += 60_000
        return Command(commandID: ids.next(), actor: actor ?? alice, recordedAt: Timestamp(millisecondsSinceEpoch: clock), action: action)
    }

    /// Moves the host clock to the start of `date` plus ten hours.
    public mutating func advance(to date: String) {
        clock = Scenario.date(date).daysSinceEpoch * 86_400_000 + 36_000_000
    }

    /// Household, Bob, a CHF joint account with CHF 1000 and a EUR card.
    public mutating func setup() -> [Command] {
        [
            command(.createHousehold(householdID: household, name: "Muster", baseCurrency: .chf, adminName: "Alice")),
            command(.addMember(personID: bob, name: "Bob")),
            command(.openWallet(walletID: joint, name: "Joint", kind: .bank, openingBalance: Scenario.chf(100_000),
                                openedOn: Scenario.date("2026-01-01"), owner: nil)),
            command(.openWallet(walletID: euroCard, name: "Euro card", kind: .card, openingBalance: Scenario.eur(0),
                                openedOn: Scenario.date("2026-01-01"), owner: alice)),
        ]
    }

    /// An expense entry in the joint account, for a `recordTransaction` command.
    public func expense(_ minorUnits: Int64, shared: Bool = false, payer: PersonID? = nil, category: CategoryID? = nil,
                        override: [MemberRatio]? = nil) -> TransactionEntry {
        TransactionEntry(
            kind: .expense, amount: Scenario.chf(minorUnits), walletID: joint, categoryID: category ?? groceries,
            date: Scenario.date("2026-01-05"), payer: payer ?? alice, shared: shared, ratioOverride: override)
    }

    /// `person`'s share of `basisPoints` (zero for a value out of range, which no test writes).
    public func ratio(_ person: PersonID, _ basisPoints: Int64) -> MemberRatio {
        MemberRatio(person: person, ratio: (try? Ratio(basisPoints: basisPoints)) ?? .zero)
    }
}
