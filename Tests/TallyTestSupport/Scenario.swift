import TallyModel

/// The test household, one for every test target: Alice (admin) and Bob (member), with Carol
/// and Dave for tests that need more people, reproducible ids and fixed categories.
///
/// It builds the household's history in one of two ways:
/// - as commands for the engine (`Scenario+Commands.swift`): `setup()` opens the household, a
///   CHF joint account and a EUR card; `command(_:by:)` stamps each command one minute after
///   the previous one (G3, G5);
/// - as events for projections folded without the engine (`Scenario+Events.swift`): the
///   household and its categories are already there, `wallet`, `expense`, `add` append events.
///
/// The household, the people and the categories are the same in both (static, with instance
/// aliases for the command-building tests that spell them `s.alice`).
public struct Scenario: Sendable {
    /// The household and its first two people: the first three ids of the scenario's seed.
    private static let identity: (household: HouseholdID, alice: PersonID, bob: PersonID) = {
        var ids = DeterministicIDGenerator(seed: seed)
        return (ids.next(), ids.next(), ids.next())
    }()

    /// People beyond the two the engine scenario opens with, from a seed of their own so the
    /// scenario's id sequence is unchanged.
    private static let others: (carol: PersonID, dave: PersonID) = {
        var ids = DeterministicIDGenerator(seed: seed + 1)
        return (ids.next(), ids.next())
    }()

    private static let seed: UInt64 = 2026

    public static var household: HouseholdID { identity.household }
    public static var alice: PersonID { identity.alice }
    public static var bob: PersonID { identity.bob }
    public static var carol: PersonID { others.carol }
    public static var dave: PersonID { others.dave }

    /// The preset categories the tests use (the engine creates every preset with the household).
    public static var groceries: CategoryID { CategoryPresets.expense[0].categoryID(in: household) }
    public static var restaurants: CategoryID { CategoryPresets.expense[3].categoryID(in: household) }
    public static var salary: CategoryID { CategoryPresets.income[0].categoryID(in: household) }
    /// The name of a preset category (the engine creates them with the household), "" for another.
    public static func categoryName(_ id: CategoryID) -> String {
        CategoryPresets.all.first { $0.categoryID(in: household) == id }?.name ?? ""
    }
    /// A savings-type category, which no preset is; only the event-built household has it.
    public static let savings = CategoryID(UUIDValue(high: 0x5AF1_0000_0000_4000, low: 0x8000_0000_0000_0001))

    /// Reproducible ids: the scenario's seed after the household and its people.
    public var ids: DeterministicIDGenerator
    /// The joint CHF bank account that `setup()` opens.
    public let joint: WalletID
    /// Alice's EUR card that `setup()` opens.
    public let euroCard: WalletID
    /// The host clock of the next command, in milliseconds; starts at 2026-01-05T10:00:00Z.
    public var clock: Int64 = 1_767_607_200_000
    /// The base currency of the event-built household.
    public let base: Currency
    /// What the event-building methods appended, after the household's opening events.
    var recorded: [(payload: EventPayload, actor: PersonID)] = []
    let opensCategories: Bool
    var eventIDsIssued: UInt64 = 1000

    /// A scenario.
    /// - Parameters:
    ///   - base: the household's base currency in the event-built history.
    ///   - categories: whether the event-built history creates the categories (groceries,
    ///     restaurants, savings, salary).
    public init(base: Currency = .chf, categories: Bool = true) {
        var ids = DeterministicIDGenerator(seed: Self.seed)
        for _ in 0..<3 { _ = ids.nextUUID() }
        joint = ids.next()
        euroCard = ids.next()
        self.ids = ids
        self.base = base
        opensCategories = categories
    }

    public var household: HouseholdID { Self.household }
    public var alice: PersonID { Self.alice }
    public var bob: PersonID { Self.bob }
    public var groceries: CategoryID { Self.groceries }
    public var restaurants: CategoryID { Self.restaurants }
    public var salary: CategoryID { Self.salary }

    /// CHF `minorUnits`.
    public static func chf(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .chf) }
    /// EUR `minorUnits`.
    public static func eur(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .eur) }
    /// The date of ISO `text`, a constant a test writes: a mistyped one stops the test run
    /// rather than quietly testing another date.
    public static func date(_ text: String) -> LocalDate {
        guard let date = try? LocalDate(iso: text) else { preconditionFailure("not an ISO date in a test: \(text)") }
        return date
    }
}
