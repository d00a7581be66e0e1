/// An archived member or contact was taken back: shown in pickers again, and they can join
/// groups and be split with again (H3; `unarchivePerson`, or the undo of `archivePerson`, T5).
///
/// Tag 108, schema version 1 (see ``EventTag/personUnarchived`` and `Docs/Events.md`).
@WireFields
public struct PersonUnarchived: Hashable, Sendable {
    /// The person taken back.
    public let personID: PersonID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(personID: PersonID) {
        self.personID = personID
    }
}
