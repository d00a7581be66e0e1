/// A cancelled recurring item was taken back (R1; the undo of `cancelTemplate`, T5): its
/// schedule has no cancel date again, so the occurrences from the cancel date on are due again
/// and the next `postDueOccurrences` posts them (once per date, as always). Nothing is posted
/// by the reinstatement itself.
///
/// Tag 425, schema version 1 (see ``EventTag/templateReinstated`` and `Docs/Events.md`).
@WireFields
public struct TemplateReinstated: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID) {
        self.templateID = templateID
    }
}
