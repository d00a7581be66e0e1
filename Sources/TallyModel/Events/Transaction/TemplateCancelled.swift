/// A recurring item was cancelled (R1): it has no occurrence on or after `effectiveOn`; its
/// posted occurrences and price history stay.
///
/// Tag 421, schema version 1 (see ``EventTag/templateCancelled`` and `Docs/Events.md`).
@WireFields
public struct TemplateCancelled: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The first date without occurrences.
    public let effectiveOn: LocalDate

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, effectiveOn: LocalDate) {
        self.templateID = templateID
        self.effectiveOn = effectiveOn
    }
}
