import TallyModel
import TallyProjections

/// What a store commit reads its rows from: a snapshot of the read models (``StoreSnapshot``:
/// a rebuild, a forgetting) or the rows gathered from one (``StoreRows``: a commit written off
/// the engine).
protocol StoreRowSource {
    /// The transaction `id` as the read models' book holds it; nil: it has no row.
    func transaction(_ id: TransactionID) -> TransactionRecord?
    /// The transfer `id` as the read models' book holds it; nil: it has no row.
    func transfer(_ id: TransferID) -> TransferRecord?
    /// The settlement `id` as the debt read model holds it; nil: it has no row.
    func settlement(_ id: SettlementID) -> SettlementRecord?
    /// Every wallet's balance row.
    func walletBalances() throws(ProjectionError) -> [WalletBalance]
    /// The totals rows.
    func walletTotals() throws(ProjectionError) -> WalletTotals
    /// The household debt rows.
    func householdDebts() throws(ProjectionError) -> [(personA: PersonID, personB: PersonID, aOwesB: Money)]
    /// A person's display name; nil: no row.
    func name(of person: PersonID) -> String?
    /// A category's name; nil: no row.
    func name(of category: CategoryID) -> String?
    /// Every person with a row, for a rebuild (it writes them all). Gathered rows know only the
    /// people their changes named; a commit of them never asks.
    func allPersonIDs() -> [PersonID]
    /// Every category with a row, as ``allPersonIDs()``.
    func allCategoryIDs() -> [CategoryID]
}

extension StoreSnapshot: StoreRowSource {
    func transaction(_ id: TransactionID) -> TransactionRecord? { readModels.transactions[id] }
    func transfer(_ id: TransferID) -> TransferRecord? { readModels.wallets.transfers[id] }
    func settlement(_ id: SettlementID) -> SettlementRecord? { readModels.debts.settlements[id] }
    func walletBalances() throws(ProjectionError) -> [WalletBalance] { try readModels.wallets.balances() }
    func walletTotals() throws(ProjectionError) -> WalletTotals { try readModels.wallets.totals() }
    func householdDebts() throws(ProjectionError) -> [(personA: PersonID, personB: PersonID, aOwesB: Money)] {
        try readModels.debts.householdNetBalances()
    }
    func name(of person: PersonID) -> String? { personName(person) }
    func name(of category: CategoryID) -> String? { categoryName(category) }
    func allPersonIDs() -> [PersonID] { personIDs() }
    func allCategoryIDs() -> [CategoryID] { categoryIDs() }
}

/// The rows one commit of ``StoreChanges`` writes, read out of a snapshot of the read models:
/// each changed transaction and transfer, the small live tables whole (balances, totals,
/// household debts: O(wallets), O(members)) and the names of the changed people and categories.
/// A plain value, gathered where the read models are (the engine) so that the SQLite work
/// (statements, page sealing) runs elsewhere and never holds the engine up.
package struct StoreRows: Sendable {
    // Every key was changed; a nil value: the read models hold no row for it (any stored one goes).
    private var transactions: [TransactionID: TransactionRecord?] = [:]
    private var transfers: [TransferID: TransferRecord?] = [:]
    private var settlements: [SettlementID: SettlementRecord?] = [:]
    private var people: [PersonID: String?] = [:]
    private var categories: [CategoryID: String?] = [:]
    private var balances: [WalletBalance]
    private var totals: WalletTotals
    private var debts: [(personA: PersonID, personB: PersonID, aOwesB: Money)]

    /// The rows `changes` needs, from `snapshot`. A forgetting's rows (every note of the forgotten
    /// people) are not gathered: commit those from the snapshot itself.
    /// - Throws: ``ProjectionError/overflow(rule:subject:)`` when a live row cannot be computed.
    package init(_ changes: StoreChanges, from snapshot: StoreSnapshot) throws(ProjectionError) {
        balances = try snapshot.walletBalances()
        totals = try snapshot.walletTotals()
        debts = try snapshot.householdDebts()
        for id in changes.transactionIDs { transactions.updateValue(snapshot.transaction(id), forKey: id) }
        for id in changes.transferIDs { transfers.updateValue(snapshot.transfer(id), forKey: id) }
        for id in changes.settlementIDs { settlements.updateValue(snapshot.settlement(id), forKey: id) }
        for id in changes.personIDs { people.updateValue(snapshot.name(of: id), forKey: id) }
        for id in changes.categoryIDs { categories.updateValue(snapshot.name(of: id), forKey: id) }
    }

    /// Puts `later`'s rows over these: two commits written as one (the live tables are whole in
    /// each, so the later ones stand). In place: O(`later`'s rows).
    package mutating func merge(_ later: StoreRows) {
        transactions.merge(later.transactions) { _, new in new }
        transfers.merge(later.transfers) { _, new in new }
        settlements.merge(later.settlements) { _, new in new }
        people.merge(later.people) { _, new in new }
        categories.merge(later.categories) { _, new in new }
        balances = later.balances
        totals = later.totals
        debts = later.debts
    }

    /// These rows with `later`'s over them (``merge(_:)``).
    package func merging(_ later: StoreRows) -> StoreRows {
        var merged = self
        merged.merge(later)
        return merged
    }
}

extension StoreRows: StoreRowSource {
    func transaction(_ id: TransactionID) -> TransactionRecord? { transactions[id] ?? nil }
    func transfer(_ id: TransferID) -> TransferRecord? { transfers[id] ?? nil }
    func settlement(_ id: SettlementID) -> SettlementRecord? { settlements[id] ?? nil }
    func walletBalances() throws(ProjectionError) -> [WalletBalance] { balances }
    func walletTotals() throws(ProjectionError) -> WalletTotals { totals }
    func householdDebts() throws(ProjectionError) -> [(personA: PersonID, personB: PersonID, aOwesB: Money)] { debts }
    func name(of person: PersonID) -> String? { people[person] ?? nil }
    func name(of category: CategoryID) -> String? { categories[category] ?? nil }
    func allPersonIDs() -> [PersonID] { Array(people.keys) }
    func allCategoryIDs() -> [CategoryID] { Array(categories.keys) }
}
