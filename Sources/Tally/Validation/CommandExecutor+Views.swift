import TallyModel

/// Saved views (Flow US-058, Swiff 2.3.3): a named transaction filter, or a report template
/// (a filter with a range and a span), owned by the member who saved it and private to them
/// unless shared (G7). Only the owner changes a view (Docs/Queries.md "Saved views").
extension CommandExecutor {
    func validateView(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .saveView(let id, let name, let shared, let filter, let report):
            try requireName(name, of: "view")
            if let existing = state.views[id] {
                // G7: another member's private view is not named, nor its owner: the id is taken.
                guard existing.isVisible(to: .member(command.actor)) else {
                    throw .violation(.duplicateID, "view id \(id) is already used; choose a new id")
                }
                try requireOwnView(existing, actor: command.actor, verb: "replaced")
            } else {
                let owned = state.views.values.count(where: { $0.owner == command.actor })
                guard owned < LedgerLimits.viewsPerPersonMax else {
                    throw .violation(.inputTooLarge, "\(self.name(of: command.actor)) has \(LedgerLimits.viewsPerPersonMax) saved views (LedgerLimits.viewsPerPersonMax); delete one first")
                }
            }
            try requireFilter(filter, of: command.actor)
            if let report { try requireReport(report) }
            let text = try entered(name, by: command.actor, keeping: state.views[id]?.name)
            return [.viewSaved(ViewSaved(viewID: id, name: text, owner: command.actor, shared: shared, filter: filter, report: report))]
        case .renameView(let id, let name):
            try requireName(name, of: "view")
            let view = try visibleView(id, actor: command.actor)
            try requireOwnView(view, actor: command.actor, verb: "renamed")
            return [.viewRenamed(ViewRenamed(viewID: id, name: try entered(name, by: command.actor)))]
        case .deleteView(let id):
            let view = try visibleView(id, actor: command.actor)
            try requireOwnView(view, actor: command.actor, verb: "deleted")
            return [.viewDeleted(ViewDeleted(viewID: id))]
        default:
            return []
        }
    }

    /// The view with `id` if `actor` sees it (their own or a shared one, G7); another member's
    /// private view is reported as unknown, so its existence does not show.
    private func visibleView(_ id: ViewID, actor: PersonID) throws(LedgerError) -> ViewSaved {
        guard let view = state.views[id], view.shared || view.owner == actor else {
            throw .violation(.unknownView, "no saved view with id \(id) is yours or shared with you")
        }
        return view
    }

    private func requireOwnView(_ view: ViewSaved, actor: PersonID, verb: String) throws(LedgerError) {
        guard view.owner == actor else {
            throw .violation(.viewNotOwned, "view id \(view.viewID) is \(name(of: view.owner))'s and can be \(verb) only by them; save your own copy under a new id")
        }
    }

    /// Every wallet, category and person the filter names exists and is one `owner` sees (a
    /// member's own wallet is theirs alone, W1); amounts are minor units from 0 up; the text
    /// and tags are not blank.
    private func requireFilter(_ filter: TransactionFilter, of owner: PersonID) throws(LedgerError) {
        let viewer = Viewer.member(owner)
        for id in filter.walletIDs {
            guard let wallet = state.wallets[id], viewer.sees(walletOwnedBy: wallet.owner) else {
                throw .violation(.unknownWallet, "the filter names wallet \(id), which is not one of the wallets you see")
            }
        }
        for id in filter.categoryIDs { _ = try existingCategory(id) }
        for person in filter.payers + filter.people { try requireKnownPerson(person) }
        if let range = filter.minorUnits, range.lowerBound < 0 {
            throw .violation(.viewInvalid, "the filter's amount range starts at \(range.lowerBound); amounts are positive minor units, start at 0 or more")
        }
        if let text = filter.text, text.allSatisfy(\.isWhitespace) {
            throw .violation(.viewInvalid, "the filter's text is blank; leave it out to match any text")
        }
        if filter.tags.contains(where: { $0.isEmpty }) {
            throw .violation(.viewInvalid, "the filter has an empty tag; list tags exactly as entered")
        }
    }

    /// A custom range has both dates, in order; a relative one has none.
    private func requireReport(_ report: ReportLayout) throws(LedgerError) {
        switch report.range {
        case .custom:
            guard let from = report.from, let through = report.through else {
                throw .violation(.viewInvalid, "a custom report range needs both from and through")
            }
            guard from <= through else { throw .violation(.viewInvalid, "the report range from \(from) through \(through) ends before it starts") }
        default:
            guard report.from == nil, report.through == nil else {
                throw .violation(.viewInvalid, "the report range \(report.range.name) is relative to the day it is run; give from and through only with the range custom")
            }
        }
    }
}

extension ViewSaved {
    /// The same view under `name` (`ViewRenamed`).
    func renamed(_ name: PersonalText) -> ViewSaved {
        ViewSaved(viewID: viewID, name: name, owner: owner, shared: shared, filter: filter, report: report)
    }
}
