/// A paused template produces occurrences again (T4).
///
/// Tag 412, schema version 1 (see ``EventTag/templateResumed`` and `Docs/Events.md`).
@WireFields
public struct TemplateResumed: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID) {
        self.templateID = templateID
    }
}
