/// The admin role moved to another member (H5).
///
/// Tag 104, schema version 1 (see ``EventTag/adminTransferred`` and `Docs/Events.md`).
@WireFields
public struct AdminTransferred: Hashable, Sendable {
    /// The previous admin, now an ordinary member.
    public let from: PersonID
    /// The new admin.
    public let to: PersonID

    /// Creates the payload; the engine validates it against the ledger before recording.
    public init(from: PersonID, to: PersonID) {
        self.from = from
        self.to = to
    }
}
