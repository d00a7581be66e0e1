/// A template stopped producing occurrences (T4).
///
/// Tag 411, schema version 1 (see ``EventTag/templatePaused`` and `Docs/Events.md`).
@WireFields
public struct TemplatePaused: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID) {
        self.templateID = templateID
    }
}
