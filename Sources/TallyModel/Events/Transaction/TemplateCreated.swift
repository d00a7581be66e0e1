/// A recurring template was created; it is not a transaction (T4, R1).
///
/// Tag 410, schema version 3 (see ``EventTag/templateCreated`` and `Docs/Events.md`).
/// Version 3 added `terms` (end date or count, free trial, sharing among people).
@WireFields
public struct TemplateCreated: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// How often it occurs.
    public let frequency: RecurrenceFrequency
    /// The transaction to record; `details.date` is the anchor date occurrences are computed
    /// from and `details.amount` the price until a ``TemplatePriceChanged``.
    public let details: TransactionDetails
    /// End, trial and sharing (R1); `nil` in versions 1 and 2.
    @WireSince(3) public let terms: TemplateTerms?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, frequency: RecurrenceFrequency, details: TransactionDetails, terms: TemplateTerms? = nil) {
        self.templateID = templateID
        self.frequency = frequency
        self.details = details
        self.terms = terms
    }
}
