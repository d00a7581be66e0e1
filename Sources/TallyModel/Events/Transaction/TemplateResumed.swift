/// A paused template produces occurrences again (T4, R1).
///
/// Tag 412, schema version 2 (see ``EventTag/templateResumed`` and `Docs/Events.md`).
/// Version 2 added `on`: the pause ends on that date (occurrences from it on are produced);
/// `nil` (and version 1) lifts the pause entirely.
@WireFields
public struct TemplateResumed: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The first date produced again; `nil` lifts the last pause as if it never was.
    @WireSince(2) public let on: LocalDate?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, on: LocalDate? = nil) {
        self.templateID = templateID
        self.on = on
    }
}
