import TallyModel
import TallyProjections
import TallyStore

extension LedgerState {
    /// The saved views `viewer` sees, by name then id: a member's own and the shared ones (G7);
    /// every view for ``Viewer/audit``.
    package func views(visibleTo viewer: Viewer) -> [ViewSaved] {
        views.values.filter { $0.isVisible(to: viewer) }.sorted { ($0.name.description, $0.viewID) < ($1.name.description, $1.viewID) }
    }

    /// The saved view `id` if `viewer` sees it.
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownView` when no view has that id or it is
    ///   another member's private one (reported alike, so its existence does not show).
    package func view(_ id: ViewID, visibleTo viewer: Viewer) throws(LedgerError) -> ViewSaved {
        guard let view = views[id], view.isVisible(to: viewer) else {
            throw .violation(.unknownView, "no saved view with id \(id) is yours or shared with you")
        }
        return view
    }
}

extension ViewSaved {
    /// Whether `viewer` sees the view (G7): its owner, everyone when shared, the audit read.
    public func isVisible(to viewer: Viewer) -> Bool {
        guard let person = viewer.person else { return true }
        return shared || owner == person
    }

    /// The transactions the view selects as `viewer` sees them (G7: a shared view run by
    /// another member lists only what that member sees), newest first, 50 per page.
    public func query(visibleTo viewer: Viewer) -> TransactionQuery {
        TransactionQuery(filter, visibleTo: viewer)
    }

    /// The analytics report the template asks for when run on `date` (R4): its range resolved
    /// against `date`, its span, its filter, for `viewer`.
    /// - Throws: ``LedgerError/invalidQuery(_:)`` for a saved filter without a report template,
    ///   or a range that leaves the calendar.
    public func analyticsQuery(on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> AnalyticsQuery {
        guard let report else {
            throw .invalidQuery("view \(name) (\(viewID)) is a saved filter without a report template; list its transactions instead")
        }
        let dates: ClosedRange<LocalDate>
        do {
            dates = try report.dates(on: date)
        } catch {
            throw .invalidQuery("view \(name) (\(viewID)): \(error.message)")
        }
        return AnalyticsQuery(span: report.span, from: dates.lowerBound, through: dates.upperBound, filter: query(visibleTo: viewer))
    }
}

extension Ledger {
    /// The saved views (filters and report templates, Flow US-058) `viewer` sees, by name:
    /// their own and the shared ones (G7), as of the last acknowledged batch.
    public func views(visibleTo viewer: Viewer) -> [ViewSaved] { queryState.views(visibleTo: viewer) }

    /// The saved view `id` if `viewer` sees it.
    /// - Throws: ``LedgerError/rejected(_:)`` `unknownView` for an unknown id or another
    ///   member's private view.
    public func view(_ id: ViewID, visibleTo viewer: Viewer) throws(LedgerError) -> ViewSaved {
        try queryState.view(id, visibleTo: viewer)
    }

    /// One page of the transactions the saved view `id` selects, as `viewer` sees them (G7),
    /// newest first; pass the page's `next` as `after` for the next one.
    /// - Throws: `unknownView` as ``view(_:visibleTo:)``; the errors of ``transactions(_:)``.
    public func transactions(view id: ViewID, visibleTo viewer: Viewer, after: TransactionCursor? = nil) throws(LedgerError) -> TransactionPage {
        var query = try view(id, visibleTo: viewer).query(visibleTo: viewer)
        query.after = after
        return try transactions(query)
    }

    /// The report of the saved report template `id` run on `date`, as `viewer` sees it (G7):
    /// its range resolved against `date`, cut by its span, through ``analytics(_:)`` (R4).
    /// - Throws: `unknownView` as ``view(_:visibleTo:)``; ``LedgerError/invalidQuery(_:)`` for a
    ///   saved filter without a template; the errors of ``analytics(_:)``.
    public func report(view id: ViewID, on date: LocalDate, visibleTo viewer: Viewer) throws(LedgerError) -> AnalyticsReport {
        try analytics(try view(id, visibleTo: viewer).analyticsQuery(on: date, visibleTo: viewer))
    }
}
