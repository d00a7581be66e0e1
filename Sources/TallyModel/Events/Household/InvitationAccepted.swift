/// The invitee accepted a pending invitation before it expired (H6, Flow US-005); the
/// ``MemberAdded`` that makes them a member follows it in the same command. Not undoable, like
/// every membership change.
///
/// Tag 655, schema version 1 (see ``EventTag/invitationAccepted`` and `Docs/Events.md`).
@WireFields
public struct InvitationAccepted: Hashable, Sendable {
    /// The invitation.
    public let invitationID: InvitationID

    /// Creates the payload.
    public init(invitationID: InvitationID) {
        self.invitationID = invitationID
    }
}
