/// A recurring item was cancelled (R1): it has no occurrence on or after `effectiveOn`; its
/// posted occurrences and price history stay.
///
/// Tag 421, schema version 2 (see ``EventTag/templateCancelled`` and `Docs/Events.md`).
/// Version 2 adds `reason`; a version 1 record decodes with none.
@WireFields
public struct TemplateCancelled: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The first date without occurrences.
    public let effectiveOn: LocalDate
    /// Why it was cancelled, if given (Swiff 1.3.3): personal text of the person who cancelled (P1).
    @WireSince(2) public let reason: PersonalText?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, effectiveOn: LocalDate, reason: PersonalText? = nil) {
        self.templateID = templateID
        self.effectiveOn = effectiveOn
        self.reason = reason
    }
}
