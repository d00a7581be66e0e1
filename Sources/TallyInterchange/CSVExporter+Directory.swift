import Tally
import TallyModel
import TallyProjections

extension CSVExporter {
    /// The columns of ``people(_:visibleTo:)``, in order.
    public static let peopleHeader = ["id", "name", "role", "state", "emoji", "color", "photo"]
    /// The columns of ``groups(_:visibleTo:)``, in order.
    public static let groupHeader = ["id", "name", "members", "state", "description", "emoji"]
    /// The columns of ``subscriptions(_:on:visibleTo:numberFormat:)``, in order.
    public static let subscriptionHeader = [
        "id", "name", "kind", "cycle", "price", "currency", "monthly_equivalent", "standing", "next_date", "wallet", "category", "payer",
    ]

    /// The CSV text of the household's people (Swiff 2.4.2, H3), by name then id. `role` is
    /// `admin`, `member` or `contact`; `state` `active`, `removed` (a member who left),
    /// `archived` (a contact) or `forgotten` (P3: the name reads `[redacted]`); `emoji`, `color`
    /// and `photo` (a digest) are the avatar's (Swiff 1.1.2), empty when not set.
    ///
    /// G7: names are the household's (Docs/Privacy.md, "What stays household-wide"), so every
    /// `viewer` gets every person; contact details (email, phone) are personal and never written.
    public static func people(_ history: LedgerHistory, visibleTo viewer: Viewer) -> String {
        let state = history.state
        let rows = state.people.map { id, person in
            let role = state.household?.admin == id ? "admin" : (person.isMember ? "member" : "contact")
            let standing = person.isForgotten ? "forgotten" : (person.isRemoved ? "removed" : (person.isArchived ? "archived" : "active"))
            let avatar = person.avatar
            return [id.description, person.name.description, role, standing, avatar?.emoji ?? "", avatar?.color ?? "", avatar?.photo?.hex ?? ""]
        }
        return text(header: peopleHeader, rows: rows.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) })
    }

    /// The CSV text of the live groups `viewer` sees (Swiff 2.4.2, S7), by name then id:
    /// `members` names them joined by `; ` in the group's order, `state` is `active` or
    /// `archived`. A member gets the groups they are in (`Viewer.sees(groupWithMembers:)`).
    public static func groups(_ history: LedgerHistory, visibleTo viewer: Viewer) -> String {
        let debts = history.readModels.debts
        let rows: [[String]] = debts.groupIDs.compactMap { id in
            guard let group = debts.group(id), viewer.sees(groupWithMembers: group.members) else { return nil }
            let standing = debts.groupState(id)
            return [
                id.description, group.name, group.members.map(history.personName).joined(separator: "; "),
                standing?.isArchived == true ? "archived" : "active", standing?.description ?? "", standing?.emoji ?? "",
            ]
        }
        return text(header: groupHeader, rows: rows.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) })
    }

    /// The CSV text of the recurring items and subscriptions `viewer` sees as of `date`
    /// (Swiff 2.4.2, R1), ordered as the subscription list orders them (next occurrence, none
    /// last, then id): `ledger.subscriptions(on:visibleTo:)`'s book, so a member gets the ones
    /// they pay or share. `price` is the price in force on `date`, `monthly_equivalent` R1's
    /// rounded once, `standing` `active`, `trial`, `paused`, `cancelled` or `ended`, `next_date`
    /// the next billed occurrence on or after `date` (empty when none).
    public static func subscriptions(
        _ history: LedgerHistory, on date: LocalDate, visibleTo viewer: Viewer, numberFormat: NumberFormat = .plain
    ) -> String {
        let rows = SubscriptionBook(state: history.state, visibleTo: viewer).subscriptions(on: date).map { item in
            [
                item.templateID.description, item.note ?? "", String(describing: item.kind), String(describing: item.frequency),
                numberFormat.text(item.price), item.price.currency.code, numberFormat.text(item.monthlyEquivalent), item.standing.rawValue,
                item.next?.date.isoString ?? "", history.walletName(item.walletID), history.categoryName(item.categoryID),
                history.personName(item.payer),
            ]
        }
        return text(header: subscriptionHeader, rows: rows)
    }
}
