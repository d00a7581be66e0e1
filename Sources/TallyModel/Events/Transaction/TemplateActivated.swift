/// An occurrence of a template was recorded as a real transaction linked to it (T4).
///
/// Tag 413, schema version 2 (see ``EventTag/templateActivated`` and `Docs/Events.md`).
@WireFields
public struct TemplateActivated: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The transaction created.
    public let transactionID: TransactionID
    /// The transaction's fields; `details.date` is the occurrence date.
    public let details: TransactionDetails

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, transactionID: TransactionID, details: TransactionDetails) {
        self.templateID = templateID
        self.transactionID = transactionID
        self.details = details
    }
}
