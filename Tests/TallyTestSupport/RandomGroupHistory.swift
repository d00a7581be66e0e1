import TallyModel

/// Random group histories as events (S7, S8), for folds without the engine: groups of the
/// scenario's four people, expenses in CHF and EUR split in exact parts (zero parts included),
/// edits (payer, amount, parts, currency), deletions and restorations (also of an expense already
/// deleted or live), group settlements, members added and removed. Every event is one the debt
/// read model applies without a problem, so its member balances are those of
/// ``GroupBalanceScan``. Reproducible from the seed.
public struct RandomGroupHistory {
    /// The generator; a test may draw from it too.
    public var random: SeededRandom
    /// Every group made so far, in the order made.
    public private(set) var groups: [GroupID] = []
    /// Each group's current members.
    private var members: [GroupID: [PersonID]] = [:]
    /// Every expense recorded so far, with its group, in the order recorded.
    private var expenses: [(id: GroupExpenseID, group: GroupID)] = []
    private let people = [Scenario.alice, Scenario.bob, Scenario.carol, Scenario.dave]

    /// A generator seeded with `seed`.
    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// Appends `count` random group events to `scenario`; every amount is at most `amountMax`
    /// minor units.
    public mutating func append(_ count: Int, to scenario: inout Scenario, amountMax: Int64 = 1_000_000) {
        for _ in 0..<count { scenario.add(next(&scenario, amountMax: amountMax)) }
    }

    private mutating func next(_ scenario: inout Scenario, amountMax: Int64) -> EventPayload {
        let roll = Int.random(in: 0..<100, using: &random)
        guard let group = groups.isEmpty ? nil : random.pick(groups), roll >= 4 else { return createGroup(&scenario) }
        switch roll {
        case 40..<58 where !expenses.isEmpty:
            let edited = random.pick(expenses)
            return .groupExpenseEdited(GroupExpenseEdited(expense: expense(edited.id, in: edited.group, amountMax: amountMax)))
        case 58..<68 where !expenses.isEmpty:
            return .groupExpenseDeleted(GroupExpenseDeleted(expenseID: random.pick(expenses).id))
        case 68..<78 where !expenses.isEmpty:
            return .groupExpenseRestored(GroupExpenseRestored(expenseID: random.pick(expenses).id))
        case 78..<92:
            let pair = Array((members[group] ?? []).shuffled(using: &random).prefix(2))
            return .settlementRecorded(SettlementRecorded(
                settlementID: scenario.id(), from: pair[0], to: pair[1], amount: money(in: 1...amountMax),
                date: Scenario.date("2026-02-02"), covers: nil, isAdvance: Bool.random(using: &random), groupID: group))
        case 92..<96 where (members[group] ?? []).count < people.count:
            let person = random.pick(people.filter { !(members[group] ?? []).contains($0) })
            members[group, default: []].append(person)
            return .groupMemberAdded(GroupMemberAdded(groupID: group, personID: person))
        case 96..<100 where (members[group] ?? []).count > 2:
            let person = random.pick(members[group] ?? [])
            members[group]?.removeAll { $0 == person }
            return .groupMemberRemoved(GroupMemberRemoved(groupID: group, personID: person))
        default:
            let id: GroupExpenseID = scenario.id()
            expenses.append((id, group))
            return .groupExpenseRecorded(expense(id, in: group, amountMax: amountMax))
        }
    }

    private mutating func createGroup(_ scenario: inout Scenario) -> EventPayload {
        let group: GroupID = scenario.id()
        let chosen = Array(people.shuffled(using: &random).prefix(Int.random(in: 2...people.count, using: &random)))
        groups.append(group)
        members[group] = chosen
        return .groupCreated(GroupCreated(groupID: group, name: "Group \(groups.count)", members: chosen))
    }

    /// An expense of `group`'s current members: a random payer, amount and currency, and exact
    /// parts (some zero) of a random non-empty subset of them that sum to the amount.
    private mutating func expense(_ id: GroupExpenseID, in group: GroupID, amountMax: Int64) -> GroupExpenseRecorded {
        let current = members[group] ?? []
        let amount = money(in: 1...amountMax)
        let sharers = Array(current.shuffled(using: &random).prefix(Int.random(in: 1...current.count, using: &random)))
        let cuts = ([0, amount.minorUnits] + sharers.dropFirst().map { _ in Int64.random(in: 0...amount.minorUnits, using: &random) }).sorted()
        let owed = sharers.indices.map { index in
            PersonShare(person: sharers[index], amount: Money(minorUnits: cuts[index + 1] - cuts[index], currency: amount.currency))
        }
        return GroupExpenseRecorded(
            expenseID: id, groupID: group, paidBy: random.pick(current), amount: amount, date: Scenario.date("2026-02-01"),
            note: nil, split: .exact(owed), owed: owed)
    }

    private mutating func money(in range: ClosedRange<Int64>) -> Money {
        Money(minorUnits: Int64.random(in: range, using: &random), currency: Bool.random(using: &random) ? .chf : .eur)
    }
}
