import TallyModel
import TallyProjections

/// The scenario as events, for projections folded without the engine. Event ids count up from
/// 1001 in the order the test makes things, so a projection that lists by id lists in that
/// order; command ids and timestamps follow the event's position.
extension Scenario {
    /// The household's events: its opening (household, Bob, the categories) and then what the
    /// test added.
    public var events: [Event] {
        let entries = opening.map { (payload: $0, actor: Self.alice) } + recorded
        return entries.enumerated().map { index, entry in
            Event(
                commandID: CommandID(UUIDValue(high: 5, low: UInt64(index + 1))), actor: entry.actor,
                recordedAt: Timestamp(millisecondsSinceEpoch: Int64(index) * 1000), payload: entry.payload)
        }
    }

    private var opening: [EventPayload] {
        var payloads: [EventPayload] = [
            .householdCreated(HouseholdCreated(
                householdID: Self.household, name: "Muster", baseCurrency: base,
                admin: Self.alice, adminName: PersonalText("Alice", owner: Self.alice))),
            .memberAdded(MemberAdded(personID: Self.bob, name: PersonalText("Bob", owner: Self.bob), role: .member)),
        ]
        guard opensCategories else { return payloads }
        for (id, name, group, type) in [
            (Self.groceries, "Groceries", CategoryGroup.expense, BudgetType.needs),
            (Self.restaurants, "Restaurants", .expense, .wants),
            (Self.savings, "Savings", .expense, .savings),
            (Self.salary, "Salary", .income, .none),
        ] {
            payloads.append(.categoryCreated(CategoryCreated(
                categoryID: id, name: name, group: group, budgetType: type, shareable: true, icon: nil, color: nil,
                isPreset: false)))
        }
        return payloads
    }

    /// A new id for something an event creates.
    public mutating func id<Kind>() -> Identifier<Kind> {
        eventIDsIssued += 1
        return Identifier(UUIDValue(high: 7, low: eventIDsIssued))
    }

    /// Appends an event with `payload` by `actor`.
    public mutating func add(_ payload: EventPayload, actor: PersonID = Scenario.alice) {
        recorded.append((payload, actor))
    }

    /// Appends a category's creation.
    public mutating func category(_ id: CategoryID, _ name: String, _ group: CategoryGroup, _ type: BudgetType) {
        add(.categoryCreated(CategoryCreated(
            categoryID: id, name: name, group: group, budgetType: type, shareable: true, icon: nil, color: nil,
            isPreset: false)))
    }

    /// Appends a wallet's opening and returns its id.
    @discardableResult
    public mutating func wallet(
        _ name: String, _ kind: WalletKind = .bank, opening: Int64 = 0, currency: Currency? = nil,
        on date: String = "2026-01-01", owner: PersonID? = nil
    ) -> WalletID {
        let walletID: WalletID = id()
        let currency = currency ?? base
        add(.walletOpened(WalletOpened(
            walletID: walletID, name: name, kind: kind, currency: currency,
            openingBalance: Money(minorUnits: opening, currency: currency), openedOn: Self.date(date), owner: owner)))
        return walletID
    }

    /// A transaction's details; `shares` are stored shares in `currency`'s minor units.
    public static func details(
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
            date: Self.date(date), note: nil, tags: [], payer: payer, split: split)
    }

    /// Appends an expense's recording and returns its id.
    @discardableResult
    public mutating func expense(
        _ units: Int64, wallet: WalletID, category: CategoryID = Scenario.groceries, on date: String,
        payer: PersonID = Scenario.alice, shares: [(PersonID, Int64)]? = nil, currency: Currency? = nil
    ) -> TransactionID {
        let transactionID: TransactionID = id()
        add(.transactionRecorded(TransactionRecorded(transactionID: transactionID, details: Self.details(
            .expense, units, currency ?? base, wallet: wallet, category: category, on: date, payer: payer,
            shares: shares))))
        return transactionID
    }

    /// Appends an income's recording and returns its id.
    @discardableResult
    public mutating func income(
        _ units: Int64, wallet: WalletID, category: CategoryID = Scenario.salary, on date: String,
        payer: PersonID = Scenario.alice, currency: Currency? = nil
    ) -> TransactionID {
        let transactionID: TransactionID = id()
        add(.transactionRecorded(TransactionRecorded(transactionID: transactionID, details: Self.details(
            .income, units, currency ?? base, wallet: wallet, category: category, on: date, payer: payer))))
        return transactionID
    }

    /// Appends an edit of `transactionID` to `details`.
    public mutating func edit(_ transactionID: TransactionID, _ details: TransactionDetails) {
        add(.transactionEdited(TransactionEdited(transactionID: transactionID, details: details)))
    }

    /// Appends the deletion of `transactionID`.
    public mutating func delete(_ transactionID: TransactionID) {
        add(.transactionDeleted(TransactionDeleted(transactionID: transactionID)))
    }

    /// Appends the restoration of `transactionID`.
    public mutating func restore(_ transactionID: TransactionID) {
        add(.transactionRestored(TransactionRestored(transactionID: transactionID)))
    }

    /// Appends the rate `text` of `base` in `quote` as of `date`; `text` must parse.
    public mutating func rate(_ base: Currency, _ quote: Currency, _ text: String, on date: String) {
        guard let rate = try? ExchangeRate.parse(base: base, quote: quote, text) else {
            preconditionFailure("the test's rate \(text) does not parse")
        }
        add(.exchangeRateSet(ExchangeRateSet(rate: rate, asOf: Self.date(date))))
    }

    /// `Projection` folded over the events (with the other read models: they share one
    /// transaction book).
    public func fold<Projection: ReadModelProjection>(_ type: Projection.Type = Projection.self) -> Projection {
        Projection.folded(events)
    }

    /// Every read model folded over the events.
    public var readModels: Projections { Projections().folding(events) }
}
