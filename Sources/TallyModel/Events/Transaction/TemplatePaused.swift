/// A template stopped producing occurrences (T4, R1).
///
/// Tag 411, schema version 2 (see ``EventTag/templatePaused`` and `Docs/Events.md`).
/// Version 2 added the dates: occurrences on or after `from` (every one when `nil`) and
/// before `resumesOn` (no end when `nil`) are skipped, never charged or posted.
@WireFields
public struct TemplatePaused: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The first date paused; `nil` (and in version 1) pauses every occurrence not yet posted.
    @WireSince(2) public let from: LocalDate?
    /// The date it resumes by itself, if any.
    @WireSince(2) public let resumesOn: LocalDate?

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, from: LocalDate? = nil, resumesOn: LocalDate? = nil) {
        self.templateID = templateID
        self.from = from
        self.resumesOn = resumesOn
    }
}
