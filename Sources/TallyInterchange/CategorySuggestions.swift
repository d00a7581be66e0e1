import Foundation
import Tally
import TallyModel
import TallyProjections

/// A category suggested for a payee (Flow US-072; Docs/Interchange.md "Category suggestions").
public struct CategorySuggestion: Sendable, Hashable {
    /// How far the payee's history agrees with the suggestion (Flow US-072's levels).
    public enum Confidence: String, Sendable, CaseIterable {
        /// At least 90% of the payee's transactions are in the category: an import uses it.
        case high
        /// 70% to 90%: an import uses it, and its preview shows it for review.
        case medium
        /// Under 70%: an import uses it only for a row with no default category.
        case low
    }

    /// The payee as compared (`PayeeKey`).
    public let payee: String
    /// The suggested category: that of the payee's latest categorised transaction.
    public let categoryID: CategoryID
    /// How many of the payee's transactions of that group are in the category.
    public let matching: Int
    /// How many of the payee's transactions of that group the viewer sees.
    public let total: Int

    /// `matching` of `total`, in basis points (exact, rounded down; G2).
    public var agreementBasisPoints: Int { total == 0 ? 0 : matching * 10_000 / total }

    /// The level of ``agreementBasisPoints``: high from 9000, medium from 7000.
    public var confidence: Confidence {
        switch agreementBasisPoints {
        case 9_000...: .high
        case 7_000...: .medium
        default: .low
        }
    }
}

/// Category suggestions learned from the transactions a viewer sees (Flow US-072; G7): for a
/// payee and group (income or expense), the category of the payee's transaction that was
/// recorded, edited, restored or moved last (the highest sequence number of its last change,
/// `TransactionRecord.lastChanged`). So a correction teaches: recategorising one "SBB"
/// expense from Transport to Commute makes Commute the suggestion for the next "SBB" row,
/// however many older ones say Transport. Deterministic: no clock, no model, the journal's
/// order only (G3).
///
/// A transaction's payee is its `payee` (Swiff 1.1.2; the CSV import fills it), compared as a
/// `PayeeKey`; a transaction without one (rows imported before payees had a field) counts by
/// its note up to the first `": "` (the import wrote `payee: note` then, Docs/Interchange.md
/// "Category suggestions"). Both are personal text (P1), so a forgotten person's (redacted, P3)
/// teach nothing. Only live transactions in a live, active category count.
///
/// A suggestion reads one range of the store's payee index (`transactions_by_payee`): O(log n
/// + the payee's transactions), never a scan of every transaction.
public struct CategorySuggestions: Sendable {
    private let state: LedgerState
    private let viewer: Viewer

    /// Suggestions from the transactions `viewer` sees in `state`; nothing is read until asked.
    package init(state: LedgerState, visibleTo viewer: Viewer) {
        self.state = state
        self.viewer = viewer
    }

    /// The suggestion for `payee` in `group`, or `nil` when the viewer has no transaction of
    /// that payee and group.
    public func suggestion(forPayee payee: String, group: CategoryGroup) -> CategorySuggestion? {
        guard let key = PayeeKey(payee: payee) else { return nil }
        let records = state.transactions.records(matching: .payee(key.value)) { record in
            !record.isDeleted && PayeeKey(of: record) == key && viewer.sees(record.details)
        }
        var latest: (lastChanged: UInt64, categoryID: CategoryID)?
        var counts: [CategoryID: Int] = [:]
        var total = 0
        for record in records.values {
            let categoryID = record.details.categoryID
            guard let category = state.categories[categoryID], category.isActive, !category.isDeleted, category.group == group else { continue }
            if latest.map({ record.lastChanged > $0.lastChanged }) ?? true { latest = (record.lastChanged, categoryID) }
            counts[categoryID, default: 0] += 1
            total += 1
        }
        guard let latest else { return nil }
        return CategorySuggestion(payee: key.value, categoryID: latest.categoryID, matching: counts[latest.categoryID] ?? 0, total: total)
    }

}

extension Ledger {
    /// The category suggested for a transaction with `payee` (Flow US-072): learned from the
    /// transactions `viewer` sees (G7), the latest categorisation of that payee winning
    /// (``CategorySuggestions``); `nil` when the viewer has none of that payee and kind.
    /// Reads the payee's range of the store's payee index: O(log n + the payee's transactions).
    /// - Parameters:
    ///   - payee: the payee (a bank's merchant name; `TransactionEntry.payee`).
    ///   - kind: income or expense: the group of the suggested category.
    ///   - viewer: who the suggestion is for (G7).
    public func suggestedCategory(forPayee payee: String, kind: TransactionKind = .expense, visibleTo viewer: Viewer) -> CategorySuggestion? {
        CategorySuggestions(state: state, visibleTo: viewer).suggestion(forPayee: payee, group: kind == .income ? .income : .expense)
    }
}
