/// A recurring template was created; it is not a transaction (T4).
///
/// Tag 410, schema version 2 (see ``EventTag/templateCreated`` and `Docs/Events.md`).
@WireFields
public struct TemplateCreated: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// How often it occurs.
    public let frequency: RecurrenceFrequency
    /// The transaction to record; `details.date` is the anchor date occurrences are computed from.
    public let details: TransactionDetails

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, frequency: RecurrenceFrequency, details: TransactionDetails) {
        self.templateID = templateID
        self.frequency = frequency
        self.details = details
    }
}
