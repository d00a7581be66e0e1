/// A saved view was saved, created or replaced (Flow US-058, Swiff 2.3.3): a named
/// transaction filter and, for a report template, the report's range and span. It belongs to
/// its owner and is private to them (G7) unless saved as shared with the household.
///
/// Tag 650, schema version 2 (see ``EventTag/viewSaved`` and `Docs/Events.md`). Every field is
/// the view after the save. Version 1 stored the name as a plain string (the owner's text).
@WireFields
public struct ViewSaved: Hashable, Sendable {
    /// The view.
    public let viewID: ViewID
    /// What the owner calls it: personal text of the owner (P1), redacted once they are
    /// forgotten (P3).
    public let name: PersonalText
    /// The member who saved it first: the only one who changes it, and, unless it is shared,
    /// the only one who sees it.
    public let owner: PersonID
    /// Whether every member sees it and may run it (each over what they see, G7).
    public let shared: Bool
    /// Which transactions it selects.
    public let filter: TransactionFilter
    /// The report template: range and span; `nil` for a saved filter.
    public let report: ReportLayout?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(viewID: ViewID, name: PersonalText, owner: PersonID, shared: Bool, filter: TransactionFilter, report: ReportLayout?) {
        self.viewID = viewID
        self.name = name
        self.owner = owner
        self.shared = shared
        self.filter = filter
        self.report = report
    }
}
