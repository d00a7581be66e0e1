import HashTreeCollections
import TallyModel
import TallyProjections
import TallyStore

/// What validation needs to know about a household, and the read models, folded from its
/// events by one function (`apply`).
///
/// A value type: the ledger validates a batch against a scratch copy and keeps the copy only
/// when the journal append succeeded (G6). The same ``apply(_:)`` runs when executing, when
/// replaying the journal at open and when rebuilding the store, so the state after reopening
/// equals the state before closing. It folds the read models (``readModels``) too, once per
/// event: a transaction is one record in their book, which validation reads (``transactions``).
/// Wallet balances, debts and budgets are the read models'. Package-internal, with
/// every type only it reaches (Docs/Architecture.md, "Public surface"): hosts read the read
/// models.
///
/// Every map here that grows with the history or the household is persistent (`TreeDictionary`,
/// `TreeSet`): the acknowledged state and validation's head share their storage (a written
/// batch carries the state after it, ``Ledger``), so a command's fold copies only the paths it
/// changes, never a whole map. The small live maps stay plain dictionaries: copied whole,
/// they cost less than a trie's lookups.
package struct LedgerState: Sendable, Equatable {
    /// The household, once created (H1).
    package internal(set) var household: HouseholdRecord?
    /// Members and contacts by id (H3).
    package internal(set) var people: TreeDictionary<PersonID, PersonRecord> = [:]
    /// Wallets by id (W1, W4): the wallet read model's one book, which the same fold writes
    /// (``readModels``); their balances, balance points (W5) and designations (N5) are its too.
    package var wallets: [WalletID: WalletRecord] { readModels.wallets.wallets }
    /// Categories by id, deleted ones included (C1-C3): the budget read model's one book, which
    /// the same fold writes (``readModels``).
    package var categories: [CategoryID: CategoryRecord] { readModels.budgets.categories }
    /// Every category, deleted ones included, in display order (C1): the budget read model's.
    package var categoryOrder: [CategoryID] { readModels.budgets.categoryOrder }
    /// What each category holds (C3): its transactions and templates, its group expenses.
    package internal(set) var categoryCounts: [CategoryID: CategoryCounts] = [:]
    /// Transactions by id, deleted ones included (T1, T3): the read models' one book, which the
    /// same fold writes (``readModels``); in the store's history once a checkpoint wrote them.
    package var transactions: ArchivedMap<TransactionID, TransactionRecord> { readModels.transactions }
    /// Transfers by id, deleted ones included (W6): the wallet read model's one book, which the
    /// same fold writes (``readModels``); in the store's history once a checkpoint wrote them.
    package var transfers: ArchivedMap<TransferID, TransferRecord> { readModels.wallets.transfers }
    /// Recurring templates by id (T4).
    package internal(set) var templates: TreeDictionary<TemplateID, TemplateRecord> = [:]
    /// The household split ratio in force; `nil` means equal parts among the members (S1). In
    /// income-based mode its ratios are the latest ``SplitRatioRecalculated``'s (S4).
    package internal(set) var splitRatio: SplitRatioSet?
    /// The split ratio as the household last set it (S1, S4): its mode and, in income-based
    /// mode, the manual ratios an income-based recalculation falls back to.
    package internal(set) var splitRatioSetting: SplitRatioSet?
    /// The latest income-based recalculation since ``splitRatioSetting`` (S4, US-067).
    package internal(set) var lastRatioRecalculation: SplitRatioRecalculated?
    /// Groups by id (S7): the debt read model's one book, which the same fold writes
    /// (``readModels``).
    package var groups: TreeDictionary<GroupID, GroupRecord> { readModels.debts.groups }
    /// Every recorded group expense with its current fields (S7), deleted ones included: the
    /// debt read model's one book, which the same fold writes; in the store's history once a
    /// checkpoint wrote them.
    package var groupExpenses: ArchivedMap<GroupExpenseID, GroupExpenseRecord> { readModels.debts.groupExpenses }
    /// Recorded settlements by id (S6): the debt read model's one book, which the same fold
    /// writes (``readModels``); validation reads which ids are taken.
    package var settlements: ArchivedMap<SettlementID, SettlementRecord> { readModels.debts.settlements }
    /// Pairwise household debts and group balances (S5, S7, H4), the settled items and the
    /// rule of what a settlement covers (S6): the debt read model, which the same fold writes.
    package var debts: DebtProjection { readModels.debts }
    /// The payday schedule and the open period (B1, B6).
    package internal(set) var periods = PeriodSchedule()
    /// The current income settings (B7): the budget read model's, which the same fold writes.
    package var incomeSettings: IncomeSettingsSet? { readModels.budgets.incomeSettings }
    /// Scenarios and alert settings (R3, R6).
    package internal(set) var planning = PlanningBook()
    /// Goals by id, deleted ones included (R2): the goal read model's one book, which the same
    /// fold writes (``readModels``).
    package var goals: [GoalID: GoalRecord] { readModels.goals.goals }
    /// The saved CSV import mappings by lowercased name (section 9).
    package internal(set) var importMappings: [String: ImportMappingSaved] = [:]
    /// The saved views (filters and report templates) by id, each as last saved or renamed
    /// (Flow US-058); deleted ones are gone.
    package internal(set) var views: [ViewID: ViewSaved] = [:]
    /// Every invitation to join the household by id, pending or ended (H6, Flow US-005).
    package internal(set) var invitations: [InvitationID: InvitationRecord] = [:]
    /// Whether a transaction was ever recorded; locks the base currency (H2).
    package internal(set) var hasTransactions = false
    /// Every command's effect and compensation, for undo and redo (T5).
    package internal(set) var history = CommandHistory()
    /// The sample data loaded now, if any (E5-S6): what every read flags as sample.
    package internal(set) var sample: SampleData?
    /// The bound on every sum of money, per currency and converted (G1, ``LedgerLimits``).
    package internal(set) var exposure = MoneyExposure()
    /// The sequence number the next applied event gets (1 for an empty journal).
    package internal(set) var nextSequenceNumber: UInt64 = 1
    /// The read models (wallets, debts, budgets, goals), folded by the same ``apply(_:)`` as the
    /// rest of this state: one fold of each event, whose result validation, the read side and
    /// the checkpoint all take. Their archived maps live in the store's history like this
    /// state's own.
    package internal(set) var readModels = Projections()

    /// An empty ledger.
    package init() {}

    /// The active members (not removed), sorted by id: kept beside ``people`` as members are
    /// added and removed, so a shared transaction's check costs O(members), not O(people)
    /// (a household keeps thousands of contacts). Derived: a checkpoint restores it from
    /// ``people`` (``membersFromPeople()``).
    package internal(set) var activeMembers: [PersonID] = []

    /// The active members as ``people`` says them: what ``activeMembers`` is kept equal to.
    func membersFromPeople() -> [PersonID] {
        people.filter { $0.value.isMember && !$0.value.isRemoved }.keys.sorted()
    }

    /// Adds `person` to ``activeMembers`` (kept sorted; once).
    mutating func addActiveMember(_ person: PersonID) {
        let index = activeMembers.firstIndex { $0 >= person } ?? activeMembers.count
        if index == activeMembers.count || activeMembers[index] != person { activeMembers.insert(person, at: index) }
    }

    /// The people forgotten so far (P3).
    package var forgottenPeople: Set<PersonID> {
        Set(people.filter(\.value.isForgotten).keys)
    }

    /// The sequence number of the latest `PersonForgotten` (0 when nobody was forgotten): a
    /// checkpoint covering less than this may hold a forgotten person's texts readable.
    package var lastForgettingSequenceNumber: UInt64 {
        people.values.compactMap(\.forgottenAt).max() ?? 0
    }

    /// The household ratio in force: the set one, or equal parts among the active members.
    package func effectiveRatios() -> [MemberRatio]? {
        if let splitRatio { return splitRatio.ratios }
        return LedgerState.equalRatios(activeMembers)
    }

    /// Equal ratios in basis points among `members`, remainders by S3 (lowest id first).
    static func equalRatios(_ members: [PersonID]) -> [MemberRatio]? {
        guard !members.isEmpty,
              let points = try? Allocation.allocate(10_000, weights: members.map { ($0, Int64(1)) }, preferred: nil)
        else { return nil }
        return zip(members, points).compactMap { person, basisPoints in
            (try? Ratio(basisPoints: basisPoints)).map { MemberRatio(person: person, ratio: $0) }
        }
    }
}

/// The maps that live in the store's history are the command history's and the read models'
/// books; the state's own values are small and live.
extension LedgerState {
    /// A copy whose archived maps are all in memory (read from the archive), so that it stays
    /// complete whatever happens to the ledger's files later.
    func detached() -> LedgerState {
        var copy = self
        copy.history = history.detached()
        copy.readModels = readModels.detached()
        return copy
    }

    /// How many entries of the archived maps (the command history's touches included) are in
    /// memory: what changed since the last checkpoint.
    var residentEntryCount: Int {
        let history = history.residentCounts
        return history.entries + history.touches + readModels.residentEntryCount
    }

    /// Whether nothing is in the archive (every map whole in memory).
    var isResident: Bool { history.isResident && readModels.isResident }

    /// The archive the maps read what is not in memory from.
    var archiveReader: StoreHistory? { history.archiveReader }

    /// What a checkpoint writes to the archive: every entry changed since the last one.
    var archiveRows: some Sequence<ArchiveRow> {
        [AnySequence(history.archiveRows), AnySequence(readModels.archiveRows)].joined()
    }

    /// After a checkpoint wrote `written` (this state as of then) to the archive `reader` reads:
    /// keeps in memory only what changed since.
    mutating func settle(written: LedgerState, reader: StoreHistory) {
        history.settle(written: written.history, reader: reader)
        readModels.settle(written: written.readModels, reader: reader)
    }

    /// Reads what is not in memory from `reader` (a state restored from a checkpoint whose
    /// archived maps are all in the archive).
    mutating func attach(_ reader: StoreHistory) {
        history.attach(reader)
        readModels.attach(reader)
    }
}
