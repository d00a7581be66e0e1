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

    /// The payee as compared (``CategorySuggestions/normalizedPayee(_:)``).
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

/// Category suggestions learned from the transactions a viewer sees (Flow US-072; G7): for each
/// payee and group (income or expense), the category of the payee's transaction that was
/// recorded, edited, restored or moved last (the highest sequence number of its last change,
/// `TransactionRecord.lastChanged`). So a correction teaches: recategorising one "SBB"
/// expense from Transport to Commute makes Commute the suggestion for the next "SBB" row,
/// however many older ones say Transport. Deterministic: no clock, no model, the journal's
/// order only (G3).
///
/// A transaction's payee is its note up to the first `": "` (the CSV import writes
/// `payee: note`, Docs/Interchange.md "Payee"), or the whole note; the note is personal text
/// (P1), so a forgotten person's notes (redacted, P3) teach nothing. Only live transactions in a
/// live, active category count.
public struct CategorySuggestions: Sendable {
    struct Key: Hashable {
        let payee: String
        let group: CategoryGroup
    }

    struct Learned {
        var latest: (sequenceNumber: UInt64, categoryID: CategoryID)
        var counts: [CategoryID: Int]
        var total: Int
    }

    private let learned: [Key: Learned]

    /// Learns from every live transaction `viewer` sees in `state`: one pass, O(transactions).
    package init(state: LedgerState, visibleTo viewer: Viewer) {
        var learned: [Key: Learned] = [:]
        for (_, record) in state.transactions.allEntries where !record.isDeleted && viewer.sees(record.details) {
            let details = record.details
            guard let note = details.note?.text, let payee = Self.payee(ofNote: note),
                  let category = state.categories[details.categoryID], category.isActive, !category.isDeleted
            else { continue }
            let key = Key(payee: payee, group: category.group)
            let change = (record.lastChanged, details.categoryID)
            var entry = learned[key] ?? Learned(latest: change, counts: [:], total: 0)
            if change.0 > entry.latest.sequenceNumber { entry.latest = change }
            entry.counts[details.categoryID, default: 0] += 1
            entry.total += 1
            learned[key] = entry
        }
        self.learned = learned
    }

    /// The suggestion for `payee` in `group`, or `nil` when the viewer has no transaction of
    /// that payee and group.
    public func suggestion(forPayee payee: String, group: CategoryGroup) -> CategorySuggestion? {
        let normalized = Self.normalizedPayee(payee)
        guard let entry = learned[Key(payee: normalized, group: group)] else { return nil }
        let category = entry.latest.categoryID
        return CategorySuggestion(payee: normalized, categoryID: category, matching: entry.counts[category] ?? 0, total: entry.total)
    }

    /// The payee of a note: the text before the first `": "`, else the whole note, normalised;
    /// `nil` when that is empty.
    public static func payee(ofNote note: String) -> String? {
        let head = note.range(of: ": ").map { String(note[..<$0.lowerBound]) } ?? note
        let payee = normalizedPayee(head)
        return payee.isEmpty ? nil : payee
    }

    /// `payee` as compared: case and diacritics folded without a locale (G3), runs of
    /// whitespace as one space, trimmed (`" MIGROS  Zürich"` is `"migros zurich"`).
    public static func normalizedPayee(_ payee: String) -> String {
        payee.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension Ledger {
    /// The category suggested for a transaction with `payee` (Flow US-072): learned from the
    /// transactions `viewer` sees (G7), the latest categorisation of that payee winning
    /// (``CategorySuggestions``); `nil` when the viewer has none of that payee and kind.
    /// Reads every transaction once: O(transactions); build ``CategorySuggestions`` once for
    /// many payees (the CSV import does).
    /// - Parameters:
    ///   - payee: the payee (a bank's merchant name, the text before `": "` of a note).
    ///   - kind: income or expense: the group of the suggested category.
    ///   - viewer: who the suggestion is for (G7).
    public func suggestedCategory(forPayee payee: String, kind: TransactionKind = .expense, visibleTo viewer: Viewer) -> CategorySuggestion? {
        CategorySuggestions(state: state, visibleTo: viewer).suggestion(forPayee: payee, group: kind == .income ? .income : .expense)
    }
}
