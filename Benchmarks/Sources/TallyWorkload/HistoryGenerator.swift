import TallyModel

/// The iterator of a ``HouseholdHistory``: the household's state so far (bounded) and the
/// queue of events already decided but not yet yielded.
///
/// Memory is bounded: only the last ``liveTransactionsMax`` personal transactions can be edited
/// or deleted, and the last ``deletedTransactionsMax`` deleted ones restored.
public struct HistoryGenerator: IteratorProtocol, Sendable {
    static let liveTransactionsMax = 512
    static let deletedTransactionsMax = 64
    static let millisecondsPerDay: Int64 = 86_400_000

    let count: Int
    var produced = 0
    var random: SplitMix64
    var ids: DeterministicIDGenerator
    var pending: [Event] = []
    var pendingIndex = 0

    // Household
    var householdID: HouseholdID
    var admin: PersonID
    var member: PersonID
    var ratios: [MemberRatio] = []
    /// Positive: `member` owes `admin` (CHF minor units, from shared expenses); negative: the reverse.
    var memberOwesAdmin: Int64 = 0

    // Wallets and categories
    var wallets: [WalletState] = []
    var expenseCategories: [CategoryID] = []
    var incomeCategories: [CategoryID] = []
    var salaryCategory: CategoryID
    var eurToCHFRate: Int64 = 95_000_000
    var propertyValue: Int64 = 85_000_000

    // Transactions that may be edited, deleted or restored
    var live: [LiveTransaction] = []
    var deleted: [LiveTransaction] = []

    // Time
    var date: LocalDate
    var periodStart: LocalDate
    var eventsToday = 0
    var eventsTodayQuota = 6
    let eventsPerDay: Int
    var lastRecordedAt: Int64 = 0
    var commandID: CommandID
    var actor: PersonID

    init(count: Int, seed: UInt64) {
        self.count = count
        random = SplitMix64(seed: seed)
        ids = DeterministicIDGenerator(seed: seed ^ 0x5EED_1D5)
        householdID = ids.next()
        admin = ids.next()
        member = ids.next()
        commandID = ids.next()
        actor = admin
        salaryCategory = CategoryPresets.income[0].categoryID(in: householdID)
        date = Self.date(2020, 1, 1)
        periodStart = Self.date(2019, 12, 25)
        // About 6 events a day, denser for big histories so that they span at most ~20 years.
        eventsPerDay = max(6, count / (20 * 365))
        enqueueSetup()
    }

    /// The next event, or `nil` after `count` events.
    public mutating func next() -> Event? {
        guard produced < count else { return nil }
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            step()
        }
        let event = pending[pendingIndex]
        pendingIndex += 1
        produced += 1
        return event
    }

    /// Decides what happens next and queues its events (at least one).
    mutating func step() {
        advanceClock()
        if date > periodEnd {
            closePeriod()
            return
        }
        let roll = random.below(1000)
        switch roll {
        case 0..<620: recordExpense()
        case 620..<700: recordSharedExpense()
        case 700..<760: recordIncome()
        case 760..<800: recordTransfer()
        case 800..<850: editTransaction()
        case 850..<880: deleteTransaction()
        case 880..<890: restoreTransaction()
        case 890..<915: recordSettlement()
        case 915..<945: recordBalance()
        case 945..<970: setExchangeRate()
        default: allocateBudget()
        }
    }

    /// Starts a new command issued by `person`.
    mutating func beginCommand(by person: PersonID) {
        commandID = ids.next()
        actor = person
    }

    /// A note written by the current command's actor (P1: free text belongs to its author).
    func note(_ text: String?) -> PersonalText? {
        text.map { PersonalText($0, owner: actor) }
    }

    /// Queues an event of the current command, with the next recordedAt.
    mutating func emit(_ payload: EventPayload) {
        let dayStart = date.daysSinceEpoch * Self.millisecondsPerDay
        let recordedAt = max(lastRecordedAt + 1 + Int64(random.below(5_000)), dayStart + 7 * 3_600_000)
        lastRecordedAt = recordedAt
        pending.append(Event(
            commandID: commandID, actor: actor,
            recordedAt: Timestamp(millisecondsSinceEpoch: recordedAt), payload: payload))
    }

    /// Moves the business date forward after a day's quota of events.
    mutating func advanceClock() {
        eventsToday += 1
        guard eventsToday > eventsTodayQuota else { return }
        eventsToday = 0
        eventsTodayQuota = 1 + random.below(2 * eventsPerDay)
        date = Self.checked { () throws(ModelError) in try date.adding(days: random.chance(percent: 20) ? 2 : 1) }
    }

    var periodEnd: LocalDate {
        Self.checked { () throws(ModelError) in try periodStart.adding(months: 1).adding(days: -1) }
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        checked { () throws(ModelError) in try LocalDate(year: year, month: month, day: day) }
    }

    /// Runs a model call whose arguments the generator has already made valid; a throw is a bug
    /// in the generator, so it traps.
    static func checked<Value>(_ body: () throws(ModelError) -> Value) -> Value {
        do {
            return try body()
        } catch {
            preconditionFailure("workload generator built an invalid value: \(error)")
        }
    }
}

/// A wallet as the generator tracks it.
struct WalletState: Sendable {
    let id: WalletID
    let kind: WalletKind
    let currency: Currency
    let owner: PersonID?
    /// Assets: the balance; card: the amount owed. Minor units.
    var balance: Int64

    func money(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: currency) }
}

/// A personal transaction that may still be edited, deleted or restored.
struct LiveTransaction: Sendable {
    let id: TransactionID
    var details: TransactionDetails
    let walletIndex: Int
}
