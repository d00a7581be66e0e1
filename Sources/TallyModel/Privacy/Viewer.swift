/// Who a read is made for (G7, Flow TECH-008): every list, search, report, statement,
/// analytics, activity page and observation takes one, so a member never receives another
/// member's personal entries. The rule of what a viewer sees is written here once and used by
/// the store's SQL, the read models, the activity feed and the exports (Docs/Privacy.md).
public enum Viewer: Hashable, Sendable, CustomStringConvertible {
    /// A person of the household: their personal entries, the shared ones they pay or hold a
    /// share of, the household's wallets and their own.
    case member(PersonID)
    /// Everyone's entries: the explicit household-admin or audit read (`tally audit`, a
    /// backup, the whole household's export). An app shows it to no member as their view.
    case audit

    /// Whether the viewer sees a transaction paid by `payer`, personal when `sharers` is `nil`
    /// (G7): a personal one is its payer's; a shared one is its payer's and every sharer's.
    public func sees(payer: PersonID, sharers: [PersonID]?) -> Bool {
        guard case .member(let person) = self else { return true }
        return payer == person || (sharers?.contains(person) ?? false)
    }

    /// Whether the viewer sees a transaction with these details.
    public func sees(_ details: TransactionDetails) -> Bool {
        sees(payer: details.payer, sharers: details.split.map { $0.shares.map(\.person) })
    }

    /// Whether the viewer sees a wallet owned by `owner` (`nil`: the household's, W1): another
    /// member's own wallet is theirs.
    public func sees(walletOwnedBy owner: PersonID?) -> Bool {
        guard case .member(let person) = self, let owner else { return true }
        return owner == person
    }

    /// Whether the viewer sees what concerns `people` only (a debt between two people, S5):
    /// a member sees what they are part of.
    public func sees(anyOf people: PersonID...) -> Bool {
        guard case .member(let person) = self else { return true }
        return people.contains(person)
    }

    /// Whether the viewer sees a group with these `members` (S7) and what belongs to it alone (its
    /// expenses, member balances and report): a member sees the groups they are in.
    public func sees(groupWithMembers members: [PersonID]) -> Bool {
        guard case .member(let person) = self else { return true }
        return members.contains(person)
    }

    /// The member, or `nil` for ``audit``.
    public var person: PersonID? {
        if case .member(let person) = self { person } else { nil }
    }

    /// `member <id>` or `audit`.
    public var description: String {
        switch self {
        case .member(let person): "member \(person)"
        case .audit: "audit"
        }
    }
}
