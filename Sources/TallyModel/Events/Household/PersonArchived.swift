/// A member or contact was archived: hidden from pickers, history kept (H3).
///
/// Tag 106, schema version 1 (see ``EventTag/personArchived`` and `Docs/Events.md`).
@WireFields
public struct PersonArchived: Hashable, Sendable {
    /// The person archived.
    public let personID: PersonID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID) {
        self.personID = personID
    }
}
