import TallyModel

/// A person of the household as a people screen, a "signed in as" picker or a viewer choice
/// (G7) shows them (H3, H5).
public struct PersonRow: Sendable, Hashable {
    /// What the person is to the household.
    public enum Role: String, Sendable, Hashable {
        /// The household's admin (H1, H5).
        case admin
        /// A member (H3).
        case member
        /// A contact: someone the household splits with in groups (H3).
        case contact
    }

    /// The person.
    public let personID: PersonID
    /// Their display name; `nil` once forgotten (P3) or while sealed (its key not held here).
    public let name: String?
    /// Admin, member or contact.
    public let role: Role
    /// A member removed from the household (H4).
    public let isRemoved: Bool
    /// An archived person (H3).
    public let isArchived: Bool
    /// A forgotten person (P3).
    public let isForgotten: Bool
    /// Their avatar, if set (Swiff 1.1.2; none once forgotten).
    public let avatar: PersonAvatar?

    /// The viewer of this person's reads (G7).
    public var viewer: Viewer { .member(personID) }
}

extension Ledger {
    /// Every person of the household, the admin first, then members, then contacts, each by
    /// name then id. Names and roles are the household's, not personal entries: every member
    /// sees them.
    public func people() -> [PersonRow] {
        let state = queryState
        let admin = state.household?.admin
        let rows = state.people.map { id, person in
            PersonRow(
                personID: id, name: person.name.text, role: id == admin ? .admin : person.isMember ? .member : .contact,
                isRemoved: person.isRemoved, isArchived: person.isArchived, isForgotten: person.isForgotten, avatar: person.avatar)
        }
        let rank: [PersonRow.Role: Int] = [.admin: 0, .member: 1, .contact: 2]
        return rows.sorted { ((rank[$0.role] ?? 3), $0.name ?? "", $0.personID) < ((rank[$1.role] ?? 3), $1.name ?? "", $1.personID) }
    }
}
