import HashTreeCollections
import TallyModel

/// What validation needs to know about a household, folded from its events (`apply`).
///
/// A value type: the ledger validates a batch against a scratch copy and keeps the copy only
/// when the journal append succeeded (G6). The same ``apply(_:)`` runs when executing and when
/// replaying the journal at open, so the state after reopening equals the state before closing.
/// This is the engine's validation state, not a read model: balances here exist for the W4
/// close check, debts for H4 and S6.
public struct LedgerState: Sendable, Equatable {
    /// The household, once created (H1).
    public internal(set) var household: HouseholdRecord?
    /// Members and contacts by id (H3).
    public internal(set) var people: [PersonID: PersonRecord] = [:]
    /// Wallets by id (W1).
    public internal(set) var wallets: [WalletID: WalletRecord] = [:]
    /// Categories by id (C1).
    public internal(set) var categories: [CategoryID: CategoryRecord] = [:]
    /// Transactions by id, deleted ones included (T1, T3).
    public internal(set) var transactions: TreeDictionary<TransactionID, TransactionRecord> = [:]
    /// Transfers by id, deleted ones included (W6).
    public internal(set) var transfers: TreeDictionary<TransferID, TransferRecord> = [:]
    /// Recurring templates by id (T4).
    public internal(set) var templates: [TemplateID: TemplateRecord] = [:]
    /// The household split ratio; `nil` means equal parts among the members (S1).
    public internal(set) var splitRatio: SplitRatioSet?
    /// Groups by id (S7).
    public internal(set) var groups: [GroupID: GroupRecord] = [:]
    /// The group of every recorded group expense (S7).
    public internal(set) var groupExpenses: TreeDictionary<GroupExpenseID, GroupID> = [:]
    /// Recorded settlement ids (S6).
    public internal(set) var settlements: TreeSet<SettlementID> = []
    /// Pairwise household debts and group balances (S5, S7, H4).
    public internal(set) var debts = DebtBook()
    /// The payday schedule and the open period (B1, B6).
    public internal(set) var periods = PeriodSchedule()
    /// Budget allocations by category and first period (B2).
    public internal(set) var budgets: [BudgetKey: Money] = [:]
    /// The current income settings (B7).
    public internal(set) var incomeSettings: IncomeSettingsSet?
    /// Whether a transaction was ever recorded; locks the base currency (H2).
    public internal(set) var hasTransactions = false
    /// Every command's effect and compensation, for undo and redo (T5).
    public internal(set) var history = CommandHistory()
    /// The bound on every sum of money, per currency and converted (G1, ``LedgerLimits``).
    public internal(set) var exposure = MoneyExposure()
    /// The sequence number the next applied event gets (1 for an empty journal).
    public internal(set) var nextSequenceNumber: UInt64 = 1
    /// Live, unsettled transactions with a split: the only ones a settlement can cover. An
    /// index derived from `transactions` (rebuilt from it after a checkpoint), so that a
    /// settlement costs O(open items), not O(all transactions).
    var openSharedTransactions: Set<TransactionID> = []

    /// An empty ledger.
    public init() {}

    /// The active members (not removed), sorted by id.
    public var activeMembers: [PersonID] {
        people.filter { $0.value.isMember && !$0.value.isRemoved }.keys.sorted()
    }

    /// The people forgotten so far (P3).
    public var forgottenPeople: Set<PersonID> {
        Set(people.filter(\.value.isForgotten).keys)
    }

    /// The sequence number of the latest `PersonForgotten` (0 when nobody was forgotten): a
    /// checkpoint covering less than this may hold a forgotten person's texts readable.
    public var lastForgettingSequenceNumber: UInt64 {
        people.values.compactMap(\.forgottenAt).max() ?? 0
    }

    /// The household ratio in force: the set one, or equal parts among the active members.
    func effectiveRatios() -> [MemberRatio]? {
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

extension LedgerState {
    /// A copy whose command history is all in memory (read from the archive), so that it stays
    /// complete whatever happens to the ledger's files later.
    func detached() -> LedgerState {
        var copy = self
        copy.history = history.detached()
        return copy
    }

    /// Display names by person id (redacted for people forgotten, P3), for the read side.
    var personNames: [PersonID: String] { people.mapValues(\.name.description) }
}
