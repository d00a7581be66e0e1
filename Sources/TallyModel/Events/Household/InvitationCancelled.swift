/// The admin cancelled a pending invitation (H6, Flow US-005); undo makes it pending again.
///
/// Tag 654, schema version 1 (see ``EventTag/invitationCancelled`` and `Docs/Events.md`).
@WireFields
public struct InvitationCancelled: Hashable, Sendable {
    /// The invitation.
    public let invitationID: InvitationID

    /// Creates the payload.
    public init(invitationID: InvitationID) {
        self.invitationID = invitationID
    }
}
