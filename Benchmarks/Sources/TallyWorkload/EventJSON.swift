import TallyModel

/// What a typical Swift app stores instead of a binary codec: a flat `Codable` DTO of an event
/// (ids as UUID strings, dates as ISO strings, money as minor units + code), written with
/// `JSONEncoder`. It mirrors every event type the workload generates; the JSON peers of the
/// comparison encode and decode this. Decoding stops at the DTO (no conversion back to
/// `Event`), which flatters the JSON peers a little.
public struct EventJSON: Codable, Hashable, Sendable {
    public var type: String
    public var commandID: String
    public var actor: String
    public var recordedAt: Int64
    public var householdID: String?
    public var personID: String?
    public var walletID: String?
    public var toWalletID: String?
    public var categoryID: String?
    public var transactionID: String?
    public var transferID: String?
    public var settlementID: String?
    public var name: String?
    public var kind: UInt8?
    public var group: UInt8?
    public var budgetType: UInt8?
    public var shareable: Bool?
    public var icon: String?
    public var color: String?
    public var isPreset: Bool?
    public var amount: MoneyJSON?
    public var amountReceived: MoneyJSON?
    public var date: String?
    public var endDate: String?
    public var note: String?
    public var tags: [String]?
    public var payer: String?
    public var ratios: [ShareJSON]?
    public var isOverride: Bool?
    public var shares: [ShareJSON]?
    public var from: String?
    public var to: String?
    public var rate: Int64?
    public var day: Int?
    public var categoryIDs: [String]?

    /// Money as minor units and currency code.
    public struct MoneyJSON: Codable, Hashable, Sendable {
        public var minorUnits: Int64
        public var currency: String
        init(_ money: Money) {
            minorUnits = money.minorUnits
            currency = money.currency.code
        }
    }

    /// A person's share (amount) or ratio (basis points in `minorUnits`, no currency).
    public struct ShareJSON: Codable, Hashable, Sendable {
        public var person: String
        public var minorUnits: Int64
        public var currency: String?
    }

    /// The DTO of `event`.
    public init(_ event: Event) {
        type = "\(event.payload.tag)"
        commandID = event.commandID.description
        actor = event.actor.description
        recordedAt = event.recordedAt.millisecondsSinceEpoch
        fill(from: event.payload)
    }

    private mutating func fill(from payload: EventPayload) {
        switch payload {
        case .householdCreated(let created):
            householdID = created.householdID.description
            name = created.name
            personID = created.admin.description
            amount = MoneyJSON(.zero(created.baseCurrency))
        case .memberAdded(let added):
            personID = added.personID.description
            name = added.name.text
            kind = added.role.rawValue
        case .splitRatioSet(let set):
            kind = set.mode.rawValue
            ratios = set.ratios.map { ShareJSON(person: $0.person.description, minorUnits: $0.ratio.basisPoints) }
        case .walletOpened(let opened):
            walletID = opened.walletID.description
            name = opened.name
            kind = opened.kind.rawValue
            amount = MoneyJSON(opened.openingBalance)
            date = opened.openedOn.isoString
            personID = opened.owner?.description
        case .categoryCreated(let created):
            categoryID = created.categoryID.description
            name = created.name
            group = created.group.rawValue
            budgetType = created.budgetType.rawValue
            shareable = created.shareable
            icon = created.icon
            color = created.color
            isPreset = created.isPreset
        case .transactionRecorded(let recorded):
            transactionID = recorded.transactionID.description
            fill(from: recorded.details)
        case .transactionEdited(let edited):
            transactionID = edited.transactionID.description
            fill(from: edited.details)
        case .transactionDeleted(let deleted):
            transactionID = deleted.transactionID.description
        case .transactionRestored(let restored):
            transactionID = restored.transactionID.description
        case .transferRecorded(let transfer):
            transferID = transfer.transferID.description
            walletID = transfer.fromWalletID.description
            toWalletID = transfer.toWalletID.description
            amount = MoneyJSON(transfer.amountSent)
            amountReceived = MoneyJSON(transfer.amountReceived)
            date = transfer.date.isoString
            note = transfer.note?.text
        case .settlementRecorded(let settlement):
            settlementID = settlement.settlementID.description
            from = settlement.from.description
            to = settlement.to.description
            amount = MoneyJSON(settlement.amount)
            date = settlement.date.isoString
        case .balanceRecorded(let balance):
            walletID = balance.walletID.description
            date = balance.date.isoString
            amount = MoneyJSON(balance.balance)
        case .exchangeRateSet(let set):
            from = set.rate.base.code
            to = set.rate.quote.code
            rate = set.rate.scaledRate
            date = set.asOf.isoString
        case .budgetAllocated(let allocated):
            categoryID = allocated.categoryID.description
            amount = MoneyJSON(allocated.amount)
            date = allocated.fromPeriod.isoString
        case .paydaySet(let set):
            day = set.day
            date = set.effectiveFrom.isoString
        case .incomeSettingsSet(let settings):
            kind = settings.mode.rawValue
            amount = MoneyJSON(settings.monthlyIncome)
            categoryIDs = settings.incomeCategoryIDs.map(\.description)
            day = settings.graceDays
        case .periodClosed(let closed):
            date = closed.periodStart.isoString
            endDate = closed.periodEnd.isoString
        default:
            break  // not generated by the workload
        }
    }

    private mutating func fill(from details: TransactionDetails) {
        kind = details.kind.rawValue
        amount = MoneyJSON(details.amount)
        walletID = details.walletID.description
        categoryID = details.categoryID.description
        date = details.date.isoString
        note = details.note?.text
        tags = details.tags
        payer = details.payer.description
        if let split = details.split {
            ratios = split.ratios.map { ShareJSON(person: $0.person.description, minorUnits: $0.ratio.basisPoints) }
            isOverride = split.isOverride
            shares = split.shares.map {
                ShareJSON(person: $0.person.description, minorUnits: $0.amount.minorUnits, currency: $0.amount.currency.code)
            }
        }
    }
}
