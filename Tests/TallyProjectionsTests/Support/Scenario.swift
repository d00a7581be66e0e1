import TallyModel
import TallyProjections

/// Builds a household's events by hand for projection tests; ids are small fixed UUIDs.
struct Scenario {
    static let alice = PersonID(UUIDValue(high: 0, low: 1))
    static let bob = PersonID(UUIDValue(high: 0, low: 2))
    static let carol = PersonID(UUIDValue(high: 0, low: 3))
    static let dave = PersonID(UUIDValue(high: 0, low: 4))
    static let groceries = CategoryID(UUIDValue(high: 1, low: 1))
    static let dining = CategoryID(UUIDValue(high: 1, low: 2))
    static let savingsCategory = CategoryID(UUIDValue(high: 1, low: 3))
    static let salary = CategoryID(UUIDValue(high: 1, low: 4))

    private(set) var events: [Event] = []
    private var nextID: UInt64 = 1000
    var base: Currency

    init(base: Currency = .chf, categories: Bool = true) {
        self.base = base
        add(.householdCreated(HouseholdCreated(
            householdID: HouseholdID(UUIDValue(high: 9, low: 9)), name: "Home", baseCurrency: base,
            admin: Self.alice, adminName: PersonalText("Alice", owner: Self.alice))))
        add(.memberAdded(MemberAdded(personID: Self.bob, name: PersonalText("Bob", owner: Self.bob), role: .member)))
        if categories {
            category(Self.groceries, "Groceries", .expense, .needs)
            category(Self.dining, "Dining", .expense, .wants)
            category(Self.savingsCategory, "Savings", .expense, .savings)
            category(Self.salary, "Salary", .income, .none)
        }
    }

    mutating func id<Kind>() -> Identifier<Kind> {
        nextID += 1
        return Identifier(UUIDValue(high: 7, low: nextID))
    }

    mutating func add(_ payload: EventPayload, actor: PersonID = Scenario.alice) {
        events.append(Event(
            commandID: CommandID(UUIDValue(high: 5, low: UInt64(events.count + 1))), actor: actor,
            recordedAt: Timestamp(millisecondsSinceEpoch: Int64(events.count) * 1000), payload: payload))
    }

    mutating func category(_ id: CategoryID, _ name: String, _ group: CategoryGroup, _ type: BudgetType) {
        add(.categoryCreated(CategoryCreated(
            categoryID: id, name: name, group: group, budgetType: type, shareable: true, icon: nil, color: nil,
            isPreset: false)))
    }

    @discardableResult
    mutating func wallet(
        _ name: String, _ kind: WalletKind = .bank, opening: Int64 = 0, currency: Currency? = nil,
        on date: String = "2026-01-01", owner: PersonID? = nil
    ) -> WalletID {
        let walletID: WalletID = id()
        let currency = currency ?? base
        add(.walletOpened(WalletOpened(
            walletID: walletID, name: name, kind: kind, currency: currency,
            openingBalance: Money(minorUnits: opening, currency: currency), openedOn: d(date), owner: owner)))
        return walletID
    }

    static func details(
        _ kind: TransactionKind, _ units: Int64, _ currency: Currency, wallet: WalletID, category: CategoryID,
        on date: String, payer: PersonID, shares: [(PersonID, Int64)]? = nil
    ) -> TransactionDetails {
        let split = shares.map { list in
            TransactionSplit(
                ratios: [], isOverride: false,
                shares: list.map { PersonShare(person: $0.0, amount: Money(minorUnits: $0.1, currency: currency)) })
        }
        return TransactionDetails(
            kind: kind, amount: Money(minorUnits: units, currency: currency), walletID: wallet, categoryID: category,
            date: d(date), note: nil, tags: [], payer: payer, split: split)
    }

    @discardableResult
    mutating func expense(
        _ units: Int64, wallet: WalletID, category: CategoryID = Scenario.groceries, on date: String,
        payer: PersonID = Scenario.alice, shares: [(PersonID, Int64)]? = nil, currency: Currency? = nil
    ) -> TransactionID {
        let transactionID: TransactionID = id()
        add(.transactionRecorded(TransactionRecorded(transactionID: transactionID, details: Self.details(
            .expense, units, currency ?? base, wallet: wallet, category: category, on: date, payer: payer,
            shares: shares))))
        return transactionID
    }

    @discardableResult
    mutating func income(
        _ units: Int64, wallet: WalletID, category: CategoryID = Scenario.salary, on date: String,
        payer: PersonID = Scenario.alice, currency: Currency? = nil
    ) -> TransactionID {
        let transactionID: TransactionID = id()
        add(.transactionRecorded(TransactionRecorded(transactionID: transactionID, details: Self.details(
            .income, units, currency ?? base, wallet: wallet, category: category, on: date, payer: payer))))
        return transactionID
    }

    mutating func edit(_ transactionID: TransactionID, _ details: TransactionDetails) {
        add(.transactionEdited(TransactionEdited(transactionID: transactionID, details: details)))
    }

    mutating func delete(_ transactionID: TransactionID) {
        add(.transactionDeleted(TransactionDeleted(transactionID: transactionID)))
    }

    mutating func restore(_ transactionID: TransactionID) {
        add(.transactionRestored(TransactionRestored(transactionID: transactionID)))
    }

    mutating func rate(_ base: Currency, _ quote: Currency, _ text: String, on date: String) {
        add(.exchangeRateSet(ExchangeRateSet(rate: try! ExchangeRate.parse(base: base, quote: quote, text), asOf: d(date))))
    }

    func fold<Projection: ReadModelProjection>(_ type: Projection.Type = Projection.self) -> Projection {
        Projection().folding(events)
    }
}

/// A date from ISO text; test input is known to be valid.
func d(_ text: String) -> LocalDate { try! LocalDate(iso: text) }
/// CHF minor units.
func chf(_ units: Int64) -> Money { Money(minorUnits: units, currency: .chf) }
