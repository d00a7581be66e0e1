import Foundation
import TallyModel
import TallyProjections

/// One match of a global search (issue 31 item 3): a person, group, recurring item, category or
/// wallet whose name holds the words searched for.
public struct SearchHit: Sendable, Hashable {
    /// What was found.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case person, group, subscription, category, wallet
    }

    /// What was found.
    public let kind: Kind
    /// Its id (a `PersonID`, `GroupID`, `TemplateID`, `CategoryID` or `WalletID`).
    public let id: UUIDValue
    /// The name that matched (a recurring item's note).
    public let name: String
}

extension Ledger {
    /// The most matches one search returns.
    public static let searchHitsMax = 200

    /// Everything named by `text` that `viewer` sees (G7), for a search box over the household:
    /// people (not forgotten), groups they are in, recurring items they pay or share, live
    /// categories and wallets they see. Every word of `text` must start a word of the name, case
    /// and accents ignored (as transaction search, Docs/Queries.md). Ordered by kind (people,
    /// groups, subscriptions, categories, wallets), then name, then id; at most `limit`
    /// (1...``searchHitsMax``). Transactions are searched by `TransactionQuery.text`.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for a text without a letter or digit, or a
    ///   limit outside 1...``searchHitsMax``.
    public func search(_ text: String, visibleTo viewer: Viewer, limit: Int = 50) throws(LedgerError) -> [SearchHit] {
        try SearchHit.search(text, visibleTo: viewer, limit: limit, state: queryState, models: servedModels)
    }
}

extension SearchHit {
    /// ``Ledger/search(_:visibleTo:limit:)`` over `state` and `models` (of the same batch): the
    /// ledger's and a reader's without the writer lock (`tally search`).
    package static func search(
        _ text: String, visibleTo viewer: Viewer, limit: Int, state: LedgerState, models: Projections
    ) throws(LedgerError) -> [SearchHit] {
        guard (1...Ledger.searchHitsMax).contains(limit) else {
            throw .invalidQuery("a search returns 1...\(Ledger.searchHitsMax) matches, not \(limit)")
        }
        let wanted = SearchWords(text)
        guard !wanted.words.isEmpty else { throw .invalidQuery("a search text needs a letter or a digit, not \"\(text)\"") }
        var hits: [SearchHit] = []
        func add(_ kind: SearchHit.Kind, _ id: UUIDValue, _ name: String?) {
            if let name, wanted.matches(name) { hits.append(SearchHit(kind: kind, id: id, name: name)) }
        }
        for (id, person) in state.people where !person.isForgotten { add(.person, id.value, person.name.text) }
        for id in models.debts.groupIDs {
            guard let group = models.debts.group(id), viewer.sees(groupWithMembers: group.members) else { continue }
            add(.group, id.value, group.name)
        }
        for (id, template) in state.templates where viewer.sees(template) { add(.subscription, id.value, template.latestDetails.note?.text) }
        for (id, category) in state.categories where !category.isDeleted { add(.category, id.value, category.name) }
        for (id, wallet) in state.wallets where viewer.sees(walletOwnedBy: wallet.owner) { add(.wallet, id.value, wallet.name) }
        let order = Dictionary(uniqueKeysWithValues: SearchHit.Kind.allCases.enumerated().map { ($1, $0) })
        return Array(hits.sorted { ((order[$0.kind] ?? 0), $0.name, $0.id) < ((order[$1.kind] ?? 0), $1.name, $1.id) }.prefix(limit))
    }
}

/// The words of a search box, each to start a word of a name, case and accents ignored.
struct SearchWords {
    let words: [String]

    init(_ text: String) { words = Self.words(text) }

    /// Whether every word starts a word of `name`.
    func matches(_ name: String) -> Bool {
        let named = Self.words(name)
        return words.allSatisfy { word in named.contains { $0.hasPrefix(word) } }
    }

    /// Lowercased words without accents, split at every character that is no letter or digit.
    static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }
}
