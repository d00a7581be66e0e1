/// A person a recurring item is shared with accepted their part, or took the acceptance back
/// (Swiff 1.1.2 SharedSubscription `isAccepted`, R1). A member answers for themselves; a
/// contact's answer is recorded by the item's payer, who asked them.
///
/// Tag 427, schema version 1 (see ``EventTag/templateSharingAccepted`` and `Docs/Events.md`).
@WireFields
public struct TemplateSharingAccepted: Hashable, Sendable {
    /// The template.
    public let templateID: TemplateID
    /// The person of its sharing whose answer this is.
    public let person: PersonID
    /// `true`: accepted; `false`: not (or no longer) accepted.
    public let accepted: Bool

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(templateID: TemplateID, person: PersonID, accepted: Bool) {
        self.templateID = templateID
        self.person = person
        self.accepted = accepted
    }
}
